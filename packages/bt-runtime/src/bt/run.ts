import { describeError, fail, type RunContext, type RunnerResult } from '@sinew/executor-contracts';
import { State } from 'mistreevous';
import { systemClock, type Clock, type TimerHandle } from '../clock/clock.js';
import type { TreeInstance, TreePool } from './adapter.js';
import type { RunState } from './leaves.js';

// One run of a behavior: step the tree, wait for a leaf to settle or the next tick, stop on abort or a stuck node.

/** The validated timing options of a behavior. */
export interface RunSettings {
  readonly tickMs: number;
  readonly maxNodeDurationMs: number | undefined;
  readonly clock: Clock | undefined;
}

/** The `runningSince` of runs that track no node durations (never written). */
const NO_DURATIONS = new Map<string, number>();

/** Runs a tree to its end on a pooled instance; a tree that finished (not one that threw) goes back to the pool. */
export async function runTree(pool: TreePool, ctx: RunContext<unknown> & { clock?: Clock }, args: unknown, settings: RunSettings): Promise<RunnerResult> {
  const clock = ctx.clock ?? settings.clock ?? systemClock;
  const instance = pool.take();
  const start = clock.now();
  const state: RunState = {
    ctx,
    // Read once: every action start checks it (a context's `signal` may be a getter: the executor's makes its controller on first read).
    signal: ctx.signal,
    args,
    clock,
    lastStepAt: start,
    delta: 0,
    runningSince: settings.maxNodeDurationMs === undefined ? NO_DURATIONS : new Map(),
  };
  instance.begin(state);
  if (state.signal.aborted) stopOnAbort(state);
  // Listen for abort only once the tree has to wait (a synchronous tree finishes in its first step).
  let onAbort: (() => void) | undefined;
  let reusable = false;
  try {
    for (let now = start; ; now = clock.now()) {
      tick(instance, state, now, settings.maxNodeDurationMs);
      if (state.error) return failed(instance, state.error);
      const treeState = instance.state();
      if (treeState === State.SUCCEEDED || treeState === State.FAILED) {
        reusable = true;
        return ended(state, treeState);
      }
      onAbort ??= listen(state);
      await nextTick(instance, state, settings);
    }
  } finally {
    if (onAbort) state.signal.removeEventListener('abort', onAbort);
    state.wake = undefined;
    instance.end();
    if (reusable) pool.release(instance);
  }
}

/** One tick at `now`: a stuck node found, then one mistreevous step, or the halt of a stopped run. */
function tick(instance: TreeInstance, state: RunState, now: number, maxNodeDurationMs: number | undefined): void {
  state.delta = (now - state.lastStepAt) / 1000;
  state.lastStepAt = now;
  if (maxNodeDurationMs !== undefined && state.stop === undefined) findStuck(state, now, maxNodeDurationMs);
  try {
    if (state.stop === undefined) instance.step();
    else instance.halt();
  } catch (error) {
    state.error ??= { nodePath: 'root', cause: error };
  }
}

function findStuck(state: RunState, now: number, maxNodeDurationMs: number): void {
  for (const [nodePath, since] of state.runningSince) {
    if (now - since >= maxNodeDurationMs) {
      state.stop = { code: 'stuck', reason: `node ${nodePath} ran ${now - since} ms (maxNodeDurationMs ${maxNodeDurationMs})`, nodePath };
      return;
    }
  }
}

function failed(instance: TreeInstance, error: NonNullable<RunState['error']>): RunnerResult {
  instance.abortInvocations(new Error('behavior tree failed'));
  const { nodePath, cause } = error;
  return fail.runnerError(`behavior tree node ${nodePath} failed: ${describeError(cause)}`, { nodePath });
}

function ended(state: RunState, treeState: State.SUCCEEDED | State.FAILED): RunnerResult {
  if (state.stop) {
    const { code, reason, nodePath } = state.stop;
    return fail[code](reason, nodePath ? { nodePath } : {});
  }
  if (treeState === State.SUCCEEDED) return undefined;
  const nodePath = state.lastFailedLeaf ?? 'root';
  return fail.runnerError(`behavior tree failed at ${nodePath}`, { nodePath });
}

/** Starts listening for the step's abort (the tree has to wait); the listener, to remove when the run ends. */
function listen(state: RunState): () => void {
  const onAbort = stopOnAbort.bind(undefined, state);
  if (state.signal.aborted) onAbort();
  else state.signal.addEventListener('abort', onAbort, { once: true });
  return onAbort;
}

/** The step's signal aborted: the run stops at its next tick. */
function stopOnAbort(state: RunState): void {
  state.stop ??= { code: 'aborted', reason: 'the step was aborted' };
  state.wake?.();
}

/** Resolves when a leaf settles, the run stops, or the next tick (or node deadline) is due. */
function nextTick(instance: TreeInstance, state: RunState, settings: RunSettings): Promise<void> {
  const { clock } = state;
  return new Promise<void>((resolve) => {
    let timer: TimerHandle | undefined;
    state.wake = () => {
      state.wake = undefined;
      if (timer !== undefined) clock.clearTimeout(timer);
      resolve();
    };
    if (state.stop || instance.hasSettled()) state.wake();
    else timer = clock.setTimeout(() => state.wake?.(), nextWakeMs(state, settings, clock.now()));
  });
}

function nextWakeMs(state: RunState, { tickMs, maxNodeDurationMs }: RunSettings, now: number): number {
  if (maxNodeDurationMs === undefined) return tickMs;
  let next = tickMs;
  for (const since of state.runningSince.values()) next = Math.min(next, Math.max(0, since + maxNodeDurationMs - now));
  return next;
}
