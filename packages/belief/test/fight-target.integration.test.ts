import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { give, GROUND_Y, spawnMob } from '@sinew/testkit';
import type { ModeEvent } from '@sinew/belief';
import { startModesBot, type ModesBot } from './real-bot.js';

// One 3-hit burst never kills a zombie (iron sword: 6 of its 20 health a hit): a fight is several bursts, and each
// must aim at the zombie it hurt, not at whichever zombie is nearest once the hits knocked the first one back.
let real: ModesBot;
const events: ModeEvent[] = [];

beforeAll(async () => {
  // always cornered: defense fights whatever is in band, in bursts of 3 hits, standing (no
  // keepAway: backing off the second zombie would take the first out of reach, and a target out of reach is let go)
  real = await startModesBot('duelist', events, { defense: { maxFleesBeforeFight: 0, attackBurstHits: 3, attackKeepAwayBlocks: 0 } });
});
afterAll(async () => {
  await real.stop();
});

/** Resolves after `n` belief ticks or once `done()` holds: the bot's own cadence, not wall time. */
function beliefTicks(n: number, done: () => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    let left = n;
    const off = real.belief.on('tick', () => {
      left -= 1;
      if (done() || left <= 0) {
        off();
        resolve(done());
      }
    });
  });
}

describe('a defense fight against two zombies, on the embedded server', () => {
  it('keeps its target across bursts until it dies, though a second zombie came nearer mid-fight', async () => {
    const { bot, server } = real;
    await give(bot, 'iron_sword', 1);
    const at = bot.entity.position.floored();
    // no AI (they stand still; knock-back still moves them); the second arrives during the first burst, nearer than the first
    const first = await spawnMob(server, 'zombie', { x: at.x + 2.0, y: GROUND_Y + 1, z: at.z + 0.5 }, { hostile: false });
    const fighting = () => events.some((e) => e.type === 'preempt' && e.mode === 'defense');
    expect(await beliefTicks(50, fighting)).toBe(true);
    const second = await spawnMob(server, 'zombie', { x: at.x + 0.5, y: GROUND_Y + 1, z: at.z + 1.6 }, { hostile: false });
    // each burst's outcome names the zombie it hit (`observables.target`); the fight ends with a kill
    const fought = () => events.flatMap((e) => (e.type === 'outcome' && e.mode === 'defense' ? e.outcomes.map((o) => o.observables ?? {}) : []));
    expect(await beliefTicks(200, () => fought().some((o) => o.killed === true))).toBe(true);
    const bursts = fought().slice(0, fought().findIndex((o) => o.killed === true) + 1);
    expect(bursts.length).toBeGreaterThanOrEqual(2);
    expect(bursts.map((o) => o.target)).toEqual(bursts.map(() => first.id));
    expect(bot.entities[second.id]).toBeDefined();
  });
});
