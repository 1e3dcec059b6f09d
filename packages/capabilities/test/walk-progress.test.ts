import { EventEmitter } from 'node:events';
import { createExecutor, type ActuatorCommand } from '@sinew/bt-runtime';
import { ManualClock } from '@sinew/executor-contracts';
import minecraftData from 'minecraft-data';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry, instrumentBot, type SinewBot } from '../src/index.js';

/** What the fake pathfinder reads of a goal (pathfinder asks its nodes the same question). */
type Goal = { isEnd(node: { x: number; y: number; z: number }): boolean };

/** Vanilla walking speed (4.317 blocks/s) over a server tick of 50 ms. */
const TICK_MS = 50;
const BLOCKS_PER_TICK = 4.317 / 20;
const registry = minecraftData('1.20.4');

/**
 * A small fake body on the ManualClock. Its pathfinder, given a goal, presses `forward` once and then holds its
 * controls: every server tick the body moves a walking tick's length along +x, with no further command, until the
 * goal's end is reached (pathfinder's full stop clears the controls) — or the body has walked into a wall at `wallX`
 * and stays there, still pressing forward.
 */
function walkingBody(clock: ManualClock, wallX = Number.POSITIVE_INFINITY) {
  const controls: Record<string, boolean> = {};
  let walking: { goal: Goal; resolve: () => void; reject: (error: Error) => void } | undefined;
  const tick = () => {
    if (!walking) return;
    const position = bot.entity.position;
    if (walking.goal.isEnd(position.floored())) {
      const { resolve } = walking;
      walking = undefined;
      bot.clearControlStates();
      return resolve();
    }
    position.x = Math.min(position.x + BLOCKS_PER_TICK, wallX);
    bot.emit('move');
    clock.setTimeout(tick, TICK_MS);
  };
  const bot = Object.assign(new EventEmitter(), {
    registry,
    entity: { position: new Vec3(0.5, 5, 0.5), onGround: true },
    health: 20,
    food: 20,
    heldItem: null,
    inventory: { items: () => [] },
    time: { timeOfDay: 6_000 },
    loadPlugin: (plugin: (body: never) => void) => plugin(bot as never),
    blockAt: (at: Vec3) => ({ name: at.y < 5 ? 'grass_block' : 'air', position: at }),
    setControlState: (control: string, state: boolean) => void (controls[control] = state),
    clearControlStates: () => void Object.keys(controls).forEach((control) => (controls[control] = false)),
    pathfinder: {
      setMovements() {},
      setGoal(goal: Goal | null) {
        if (goal !== null || !walking) return;
        const { reject } = walking;
        walking = undefined;
        reject(Object.assign(new Error('goal changed'), { name: 'GoalChanged' }));
      },
      goto: (goal: Goal) =>
        new Promise<void>((resolve, reject) => {
          walking = { goal, resolve, reject };
          bot.setControlState('forward', true);
          clock.setTimeout(tick, TICK_MS);
        }),
    },
  });
  return { bot: instrumentBot(bot as unknown as SinewBot), controls };
}

/** Runs one `navigate` step through a real executor on the ManualClock, one server tick at a time, noting each command's time. */
async function navigateOnTicks(target: { x: number; y: number; z: number }, wallX?: number) {
  const clock = new ManualClock();
  const { bot, controls } = walkingBody(clock, wallX);
  const commands: { at: number; command: string }[] = [];
  bot.sinew.onActuate(({ command }: ActuatorCommand) => commands.push({ at: clock.now(), command }));
  const executor = createExecutor({ registry: createStandardRegistry(), body: bot, clock, policy: { maxLocalRetries: 0 } });
  let ended = false;
  const outcome = executor.run({ planId: 'walk', intentId: 'test', steps: [{ stepId: 'w', type: 'navigate', args: { position: target } }] });
  void outcome.finally(() => (ended = true));
  for (let ticks = 0; !ended && ticks < 1_000; ticks += 1) await clock.advance(TICK_MS);
  await executor.close();
  return { outcome: await outcome, commands, bot, controls, endedAt: clock.now() };
}

describe('a walk is progress while the body moves (the executor stuck window, A4)', () => {
  it('a 5 s straight walk with no command after the first succeeds in one attempt instead of ending stuck at 3 s', async () => {
    const { outcome, commands, bot, endedAt } = await navigateOnTicks({ x: 24, y: 5, z: 0 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(outcome.steps).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
    expect(bot.entity.position.x).toBeGreaterThan(22);
    // The walk outlasted the 3 s stuck window with the body's only commands at its start and at its full stop:
    // the body moving was the only sign of life the executor had.
    expect(endedAt).toBeGreaterThan(4_500);
    const walkEndedAt = commands.at(-1)!.at;
    expect(commands.filter(({ at }) => at > 0 && at < walkEndedAt)).toEqual([]);
    expect(walkEndedAt).toBeGreaterThan(4_500);
  });

  it('a body that walked into a wall with its controls held still ends stuck: progress stops when the body does', async () => {
    const { outcome, commands, controls, endedAt } = await navigateOnTicks({ x: 24, y: 5, z: 0 }, 6);
    expect(outcome.steps).toMatchObject([{ status: 'failed', attempts: 1, failure: { code: 'stuck' } }]);
    expect(outcome.failure?.reason).toMatch(/no actuator command, node transition or progress for 3000 ms/);
    // It hits the wall at 1.3 s, its last "moved" note no later: stuck fires 3 s after that note — not 3 s after the
    // walk's start (movement ignored), nor at the walk's own 6 s no-progress check (progress noted without movement).
    expect(endedAt).toBeGreaterThan(3_000);
    expect(endedAt).toBeLessThanOrEqual(1_300 + 3_000);
    expect(commands.filter(({ at }) => at > 0 && at < 3_000)).toEqual([]);
    expect(controls.forward).toBe(false); // the walk that was stopped let go of the controls
  });
});
