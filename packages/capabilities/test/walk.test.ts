import { EventEmitter } from 'node:events';
import type { RunContext } from '@sinew/executor-contracts';
import minecraftData from 'minecraft-data';
import pathfinderPackage from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import type { SinewBot } from '../src/index.js';
import { walkTo, type WalkOptions } from '../src/body.js';

/**
 * A small fake body: pathfinder never finishes (as when it re-plans forever) while the test moves the body
 * along a scripted track, one position per sample. Time comes from a counter the samples advance.
 */
function fakeBody(track: (sample: number) => { x: number; z: number }) {
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
  let sample = 0;
  let now = 0;
  const ctx = {
    body: bot as unknown as SinewBot,
    signal: new AbortController().signal,
    blackboard: new Map(),
    log: { debug() {}, info() {}, warn() {}, error() {} },
    step: { planId: 'p', stepId: 's', verb: 'navigate', version: '1.0.0', attempt: 1 },
    progress() {},
    transition() {},
    // Each sample is 250 ms of body time; the position follows the track.
    now: () => {
      const { x, z } = track(sample);
      bot.entity.position = new Vec3(x, 5, z);
      sample += 1;
      now += 250;
      return now;
    },
  } satisfies RunContext<SinewBot>;
  return { ctx, goals };
}

const goal = new pathfinderPackage.goals.GoalNear(100, 5, 0, 1);

describe('walkTo', () => {
  it('stops a body walking back and forth with stuck (FM-04 flapping)', async () => {
    const { ctx, goals } = fakeBody((i) => ({ x: i % 2, z: 0 }));
    const failure = await walkTo(ctx, goal, { sampleMs: 1 });
    expect(failure).toMatchObject({ code: 'stuck', retryable: true });
    expect(failure?.reason).toMatch(/FM-04/);
    expect(goals.at(-1)).toBeNull(); // the pathfinder goal was cleared
  });

  it('stops a body that does not move while pathfinder re-plans (no progress)', async () => {
    const { ctx } = fakeBody(() => ({ x: 0, z: 0 }));
    const failure = await walkTo(ctx, goal, { sampleMs: 1 });
    expect(failure).toMatchObject({ code: 'stuck' });
    expect(failure?.reason).toMatch(/no progress/);
  });

  it('ends a walk past its budget with timeout while the body keeps moving', async () => {
    const { ctx } = fakeBody((i) => ({ x: i, z: 0 }));
    const failure = await walkTo(ctx, goal, { sampleMs: 1, budgetMs: 5_000 });
    expect(failure).toMatchObject({ code: 'timeout' });
  });

  it('has no dynamic option (pathfinder dynamic goals never resolve goto; GoalFollow re-plans by itself)', () => {
    // @ts-expect-error `dynamic` was accepted but never read; tsc fails here if it comes back.
    const options: WalkOptions = { dynamic: true };
    expect(Object.keys(options)).toEqual(['dynamic']);
  });
});
