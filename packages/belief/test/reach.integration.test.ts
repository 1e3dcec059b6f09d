import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, GROUND_Y, spawnMob, type TestServer } from '@sinew/testkit';
import type { ModeEvent } from '@sinew/belief';
import type { AttachedModes, BeliefAdapter } from '@sinew/belief/mineflayer';
import type { SinewBot } from '@sinew/capabilities';
import { startModesBot, type ModesBot } from './real-bot.js';

// A zombie near the bot that cannot walk to it is no threat: the defense neither flees nor fights it.
let real: ModesBot | undefined;
let server: TestServer;
let bot: SinewBot;
let belief: BeliefAdapter;
let modes: AttachedModes;
const events: ModeEvent[] = [];

beforeAll(async () => {
  real = await startModesBot('reachable', events);
  ({ server, bot, belief, modes } = real);
});
afterAll(async () => {
  await real?.stop();
});

/** Resolves after `n` belief ticks (the defense decides on each): waits on the bot's own cadence, not on wall time. */
function beliefTicks(n: number, done: () => boolean = () => false): Promise<boolean> {
  return new Promise((resolve) => {
    let left = n;
    const off = belief.on('tick', () => {
      left -= 1;
      if (done() || left <= 0) {
        off();
        resolve(done());
      }
    });
  });
}

const defensePreempts = () => events.filter((e) => e.type === 'preempt' && e.mode === 'defense');

describe('defense against hostiles that can reach the bot, on the embedded server', () => {
  it('a zombie 4 blocks off in a pit two deep is left alone; one on open ground at the same distance is fled from', async () => {
    const at = bot.entity.position.floored();
    // a 3×3 pit, two deep, east of the bot: a zombie steps up one block, never two
    await fill(server, at.offset(3, -1, -1), at.offset(5, -2, 1), 'air');
    const trapped = await spawnMob(server, 'zombie', { x: at.x + 4.5, y: GROUND_Y - 1, z: at.z + 0.5 }, { speed: 1, attackDamage: 1 });
    const seen = () => Object.values(bot.entities).some((e) => e.id === trapped.id);
    expect(await beliefTicks(50, seen)).toBe(true);
    const checked = modes.reachCounts().unreachable;
    await beliefTicks(15);
    expect(defensePreempts()).toEqual([]);
    expect(modes.reflex.status().engaged).toBe(false);
    expect(modes.reachCounts().unreachable).toBeGreaterThanOrEqual(checked + 10);

    // the control: the same kind at the same distance, west, on open ground
    await spawnMob(server, 'zombie', { x: at.x - 3.5, y: GROUND_Y + 1, z: at.z + 0.5 }, { speed: 1, attackDamage: 1 });
    expect(await beliefTicks(50, () => defensePreempts().length > 0)).toBe(true);
    expect(defensePreempts()[0]).toMatchObject({ step: { type: 'flee' } });
    await modes.idle();
  });
});
