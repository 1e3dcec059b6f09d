import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { rawDetectionReaders, sourceFiles } from './tripwire.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('anti-bypass tripwire (seeds/003): only the belief adapter feeds raw detection into cognition', () => {
  it('no source in any package or example reads bot.entities (or another raw detection feed) outside the adapter and the body', () => {
    const files = sourceFiles(root);
    // The scan sees every package, not only belief: a tripwire that looks nowhere cannot fail.
    for (const pkg of ['belief', 'planners', 'server', 'bt-runtime', 'fleet', 'executor-contracts', 'capabilities']) {
      expect(files.some((f) => f.startsWith(`packages/${pkg}/src/`)), pkg).toBe(true);
    }
    expect(files.some((f) => f.startsWith('examples/'))).toBe(true);
    expect(rawDetectionReaders(root, files)).toEqual([]);
  });

  it('trips on every raw feed, in any package but the allowed ones', () => {
    const sources: Record<string, string> = {
      'packages/planners/src/needs/peek.ts': 'const mobs = Object.values(bot.entities).filter(isHostile);',
      'packages/server/src/peek.ts': 'const zombie = this.body.entities[id];',
      'examples/demo/src/peek.ts': "const near = bot.nearestEntity((e) => e.type === 'mob');",
      'packages/fleet/src/peek.ts': "bot.on('entityMoved', (e) => think(e));",
      'packages/belief/src/bus/peek.ts': 'for (const e of Object.values(body.entities)) seen.push(e);',
      'packages/belief/src/mineflayer/evidence.ts': 'for (const key of Object.keys(bot.entities)) {}',
      'packages/capabilities/src/body/entities.ts': 'for (const entity of Object.values(bot.entities)) {}',
      'packages/testkit/src/world.ts': 'for (const entity of Object.values(serv.entities)) {}',
      'packages/planners/src/llm/fine.ts': 'const world = snapshot.entities ?? {}; // a belief snapshot, not the bot',
    };
    expect(rawDetectionReaders('/', Object.keys(sources), (f) => sources[f]!).map((line) => line.split(':')[0])).toEqual([
      'packages/planners/src/needs/peek.ts',
      'packages/server/src/peek.ts',
      'examples/demo/src/peek.ts',
      'packages/fleet/src/peek.ts',
      'packages/belief/src/bus/peek.ts',
    ]);
  });
});
