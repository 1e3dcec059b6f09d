import { createExecutor, createMemoryProvenance, type ActuatorCommand } from '@sinew/bt-runtime';
import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../src/index.js';
import { TICK_MS, walkingBody, type WalkingBodyOptions } from './walking-body.js';

/** Runs one `navigate` step through a real executor on the ManualClock, one server tick at a time, noting each command's time. */
async function navigateOnTicks(target: { x: number; y: number; z: number }, body: WalkingBodyOptions = {}) {
  const clock = new ManualClock();
  const { bot, controls } = walkingBody(clock, body);
  const commands: { at: number; command: string }[] = [];
  bot.sinew.onActuate(({ command }: ActuatorCommand) => commands.push({ at: clock.now(), command }));
  const memory = createMemoryProvenance();
  const executor = createExecutor({ registry: createStandardRegistry(), body: bot, clock, provenance: [memory], policy: { maxLocalRetries: 0 } });
  let ended = false;
  const outcome = executor.run({ planId: 'walk', intentId: 'test', steps: [{ stepId: 'w', type: 'navigate', args: { position: target } }] });
  void outcome.finally(() => (ended = true));
  for (let ticks = 0; !ended && ticks < 1_000; ticks += 1) await clock.advance(TICK_MS);
  await executor.close();
  const notes = memory.records().flatMap((record) => record.trace.filter((entry) => entry.kind === 'progress').map((entry) => ({ at: entry.atMs, note: entry.name })));
  return { outcome: await outcome, commands, notes, bot, controls, endedAt: clock.now() };
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
    const { outcome, commands, controls, endedAt } = await navigateOnTicks({ x: 24, y: 5, z: 0 }, { wallX: 6 });
    expect(outcome.steps).toMatchObject([{ status: 'failed', attempts: 1, failure: { code: 'stuck' } }]);
    expect(outcome.failure?.reason).toMatch(/no actuator command, node transition or progress for 3000 ms/);
    // It hits the wall at 1.3 s, its last "moved" note no later: stuck fires 3 s after that note — not 3 s after the
    // walk's start (movement ignored), nor at the walk's own 6 s no-progress check (progress noted without movement).
    expect(endedAt).toBeGreaterThan(3_000);
    expect(endedAt).toBeLessThanOrEqual(1_300 + 3_000);
    expect(commands.filter(({ at }) => at > 0 && at < 3_000)).toEqual([]);
    expect(controls.forward).toBe(false); // the walk that was stopped let go of the controls
  });

  it('a walk whose pathfinder thinks 4 s before its first step is working, not stuck: one attempt, succeeded', async () => {
    // mineflayer-pathfinder computes a long path over several ticks (a `partial` path_update each tick, up to its 5 s
    // think budget) with no command and the body still: before, the executor's 3 s stuck window ended such a walk.
    const { outcome, notes, bot, endedAt } = await navigateOnTicks({ x: 24, y: 5, z: 0 }, { thinkTicks: 80 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(outcome.steps).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
    expect(bot.entity.position.x).toBeGreaterThan(22);
    expect(endedAt).toBeGreaterThan(4_000 + 4_500);
    // One note a second while it thinks (not one per tick), then the walking notes.
    const thinking = notes.filter(({ note }) => note.startsWith('walking: path partial'));
    expect(thinking.map(({ at }) => at)).toEqual([1_000, 2_000, 3_000]);
    expect(notes.some(({ note }) => note === 'walking: moved')).toBe(true);
  });

  it('a pathfinder that thinks and never finds a path ends stuck: each walk on its own 6 s no-movement bound', async () => {
    const { outcome, notes, endedAt } = await navigateOnTicks({ x: 24, y: 5, z: 0 }, { thinkTicks: Number.POSITIVE_INFINITY });
    expect(outcome.steps).toMatchObject([{ status: 'failed', attempts: 1, failure: { code: 'stuck' } }]);
    // The walk, then the ladder's two walks of approach_other_side (back off, the far side): each ends on the walk's
    // own bound, never on the executor's 3 s window (the thinking notes keep the step live) and never without end.
    expect(outcome.failure?.reason).toMatch(/^no progress toward the goal for 6 s; recovery ladder exhausted: .*approach_other_side failed \(far side: stuck: no progress toward the goal for 6 s\)/);
    expect(endedAt).toBeGreaterThan(3 * 6_000);
    expect(endedAt).toBeLessThan(3 * 6_000 + 1_500);
    expect(notes.filter(({ note }) => note.startsWith('walking: path partial')).length).toBeGreaterThanOrEqual(3 * 5);
  });
});
