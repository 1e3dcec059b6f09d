import { EventEmitter } from 'node:events';
import { ManualClock } from '@sinew/executor-contracts';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import minecraftData from 'minecraft-data';
import pathfinderPackage from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import type { SinewBot } from '../src/index.js';
import { walkTo, type WalkOptions } from '../src/body/walking.js';

/**
 * A small fake body: pathfinder never finishes (as when it re-plans forever) while the test moves the body
 * along a scripted track, one position per 250 ms sample of a ManualClock.
 */
function fakeBody() {
  const goals: unknown[] = [];
  const bot = Object.assign(new EventEmitter(), {
    registry: minecraftData('1.20.4'),
    entity: { position: new Vec3(0, 5, 0) },
    clearControlStates() {},
    pathfinder: {
      setMovements() {},
      setGoal(goal: unknown) {
        goals.push(goal);
      },
      goto: () => new Promise<void>(() => undefined),
    },
  });
  const clock = new ManualClock();
  const ctx = createTestRunContext({ body: bot as unknown as SinewBot, clock, step: { verb: 'navigate' } });
  return { bot, ctx, clock, goals };
}

/** Walks the fake body along `track` until walkTo settles (at most 200 samples). */
async function walkAlong(track: (sample: number) => { x: number; z: number }, options: WalkOptions = {}) {
  const { bot, ctx, clock, goals } = fakeBody();
  let settled = false;
  const walking = walkTo(ctx, goal, options).finally(() => (settled = true));
  for (let sample = 0; !settled && sample < 200; sample += 1) {
    const { x, z } = track(sample);
    bot.entity.position = new Vec3(x, 5, z);
    await clock.advance(250);
  }
  return { failure: await walking, goals, clock, ctx };
}

const goal = new pathfinderPackage.goals.GoalNear(100, 5, 0, 1);

describe('walkTo', () => {
  it('stops a body walking back and forth with stuck (FM-04 flapping)', async () => {
    const { failure, goals } = await walkAlong((i) => ({ x: i % 2, z: 0 }));
    expect(failure).toMatchObject({ code: 'stuck', retryable: true });
    expect(failure?.reason).toMatch(/FM-04/);
    expect(goals.at(-1)).toBeNull(); // the pathfinder goal was cleared
  });

  it('stops a body that does not move while pathfinder re-plans (no progress)', async () => {
    const { failure, clock } = await walkAlong(() => ({ x: 0, z: 0 }));
    expect(failure).toMatchObject({ code: 'stuck' });
    expect(failure?.reason).toMatch(/no progress/);
    expect(clock.now()).toBe(6_250); // the first sample past the 6 s window, on the fake clock
  });

  it('ends with aborted as soon as the context aborts, without waiting for the next sample', async () => {
    const { ctx, clock, goals } = fakeBody();
    const walking = walkTo(ctx, goal);
    await clock.advance(100);
    ctx.abort();
    await expect(walking).resolves.toMatchObject({ code: 'aborted' });
    expect(clock.now()).toBe(100);
    expect(goals.at(-1)).toBeNull();
  });

  it('ends a walk past its budget with timeout while the body keeps moving', async () => {
    const { failure, clock } = await walkAlong((i) => ({ x: i, z: 0 }), { budgetMs: 5_000 });
    expect(failure).toMatchObject({ code: 'timeout' });
    expect(clock.now()).toBe(5_250); // the first sample past the budget, on the fake clock
  });

  it('has no dynamic option (pathfinder dynamic goals never resolve goto; GoalFollow re-plans by itself)', () => {
    // @ts-expect-error `dynamic` was accepted but never read; tsc fails here if it comes back.
    const options: WalkOptions = { dynamic: true };
    expect(Object.keys(options)).toEqual(['dynamic']);
  });
});
