import { createTestRunContext } from '@sinew/bt-runtime/testing';
import { ManualClock } from '@sinew/executor-contracts';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { climbBack } from '../src/body/mining.js';
import { TICK_MS, walkingBody, type WalkingBodyOptions } from './walking-body.js';

/** Climbs back to `start` from the fake body's spot (an empty trail: the walk to the start, twice), one server tick at a time. */
async function climbTo(start: Vec3, options: WalkingBodyOptions) {
  const clock = new ManualClock();
  const { bot } = walkingBody(clock, options);
  const ctx = createTestRunContext({ body: bot, clock, step: { verb: 'mine' } });
  let ended = false;
  const climbing = climbBack(ctx, [], start).finally(() => (ended = true));
  for (let ticks = 0; !ended && ticks < 4_000; ticks += 1) await clock.advance(TICK_MS);
  return { failure: await climbing, bot, ctx, endedAt: clock.now() };
}

describe('climbing back up a mine', () => {
  it('a leg that keeps moving is never cut off by wall time: a crawl of 74 s to the start arrives (a loaded machine)', async () => {
    // 0.4 blocks a second: a tenth of walking speed, as a climb that digs and towers on a loaded machine goes.
    const { failure, bot, endedAt } = await climbTo(new Vec3(30, 5, 0), { blocksPerTick: 0.02 });
    expect(failure).toBeUndefined();
    expect(bot.entity.position.floored()).toMatchObject({ x: 30, y: 5, z: 0 });
    expect(endedAt).toBeGreaterThan(70_000);
  });

  it('a leg whose body stopped still ends: stuck after 6 s without moving, on each of the two tries at the start', async () => {
    const { failure, ctx, endedAt } = await climbTo(new Vec3(30, 5, 0), { blocksPerTick: 0.02, wallX: 5 });
    expect(failure).toMatchObject({ code: 'stuck', reason: 'back up the stairs: no progress toward the goal for 6 s' });
    expect(ctx.progressNotes.filter((note) => note.startsWith('climbing: at 5,5,0 (leg to 30,5,0: stuck)'))).toHaveLength(1);
    // The wall is 4.5 blocks (11.25 s) away, its last half block counted a little before; then 6 s without moving, twice.
    expect(endedAt).toBeGreaterThan(10_000 + 2 * 6_000);
    expect(endedAt).toBeLessThanOrEqual(11_250 + 2 * 6_000 + 1_000);
  });
});
