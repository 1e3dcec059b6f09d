import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from '../src/demo.js';
import { FlagsSchema } from '../src/flags.js';

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A stdout stand-in that keeps what the demo prints. */
function capture(): { out: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { out: sink as unknown as NodeJS.WriteStream, text: () => text };
}

describe('npm run demo -- --goal iron_pickaxe', () => {
  it('from an empty inventory in the tech_tree world (seed 1): needs → router → HTN → executor with live repairs makes an iron pickaxe', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sinew-techtree-'));
    const { out, text } = capture();
    const result = await runDemo({ port: 0, keepAlive: false, provenancePath: join(scratch, 'provenance.jsonl'), goal: 'iron_pickaxe', seed: 1, out });
    expect(result.exitCode, text()).toBe(0);
    expect(result.held).toBe(1);
    // Every tier on the way, in order, without a hand-written plan: the HTN planned it, the executor ran it.
    expect(result.milestones.map((m) => m.item)).toEqual(['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe']);
    expect(text()).toMatch(/route {4}→ htn/);
    expect(text()).toContain('thought  no pickaxe and no wood → need wood');
    const verbs = result.outcome?.steps.filter((s) => s.status === 'succeeded').map((s) => s.verb) ?? [];
    expect(verbs).toEqual(expect.arrayContaining(['gather', 'craft_item', 'place_block', 'smelt_item']));
    expect(result.routeEvents.filter((e) => e.type === 'planned').map((e) => e.type === 'planned' && e.planner)).toEqual(['htn']);
  }, 300_000);
});

describe('demo flags', () => {
  it('accept any item as --goal and a seed; refuse a negative seed', () => {
    expect(FlagsSchema.parse({ goal: 'iron_pickaxe', seed: '7' })).toMatchObject({ goal: 'iron_pickaxe', seed: 7 });
    expect(FlagsSchema.parse({})).toMatchObject({ goal: 'wooden_pickaxe', seed: 1 });
    expect(FlagsSchema.parse({ goal: 'diamond_pickaxe' })).toMatchObject({ goal: 'diamond_pickaxe' });
    expect(FlagsSchema.safeParse({ seed: '-1' }).success).toBe(false);
  });
});
