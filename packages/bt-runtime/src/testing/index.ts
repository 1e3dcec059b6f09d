import { createBlackboard, type Blackboard, type Logger, type StepInfo } from '@sinew/executor-contracts';
import { z } from 'zod';
import { sleepOn, type Clock } from '../clock/clock.js';
import { StepAbortError } from '../executor/attempt-result.js';
import type { ExecutorRunContext } from '../executor/types.js';

const isFunctionOf = (value: unknown, keys: readonly string[]) =>
  typeof value === 'object' && value !== null && keys.every((key) => typeof (value as Record<string, unknown>)[key] === 'function');

const TestRunContextOptionsSchema = z.strictObject({
  body: z.unknown(),
  clock: z.custom<Clock>((value) => isFunctionOf(value, ['now', 'setTimeout', 'clearTimeout']), {
    error: 'clock: expected a Clock (ManualClock for fake time, systemClock against a real server)',
  }),
  signal: z.instanceof(AbortSignal).optional(),
  step: z
    .strictObject({ planId: z.string(), stepId: z.string(), verb: z.string(), version: z.string(), attempt: z.number().int().min(1) })
    .partial()
    .optional(),
  log: z.custom<Logger>((value) => isFunctionOf(value, ['debug', 'info', 'warn', 'error']), { error: 'log: expected a Logger' }).optional(),
  blackboard: z.custom<Blackboard>((value) => isFunctionOf(value, ['get', 'set', 'has', 'delete']), { error: 'blackboard: expected a Blackboard' }).optional(),
});

/** What `createTestRunContext` takes; only `body` and `clock` are required. */
export interface TestRunContextOptions<Body> {
  readonly body: Body;
  /** What `now()` and `sleep()` run on: a `ManualClock` for fake time, `systemClock` against a real server. */
  readonly clock: Clock;
  /** An outside signal that also aborts the context (besides `ctx.abort()`). */
  readonly signal?: AbortSignal;
  readonly step?: Partial<StepInfo>;
  /** Defaults to a silent logger. */
  readonly log?: Logger;
  /** Defaults to an empty blackboard. */
  readonly blackboard?: Blackboard;
}

/** A RunContext for running a capability or behavior tree outside an executor, plus what a test inspects. */
export interface TestRunContext<Body> extends ExecutorRunContext<Body> {
  /** Aborts `signal` as a watchdog or preemption would (default reason: a StepAbortError with code `aborted`). */
  abort(reason?: unknown): void;
  /** Every `progress(note)` the runner reported, in order (`progress` when it gave no note). */
  readonly progressNotes: readonly string[];
  /** Every `transition(nodePath, state)` as `nodePath=state`, in order. */
  readonly transitions: readonly string[];
}

const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const TEST_STEP: StepInfo = { planId: 'test-plan', stepId: 'test-step', verb: 'test', version: '0.0.0', attempt: 1 };

/**
 * A RunContext whose `now()`/`sleep()` run on the given clock and whose signal the test aborts, so a
 * runner can be driven step by step (Temporal's MockActivityEnvironment is the model). Bad options throw
 * a TypeError naming the field.
 *
 * @example
 * const clock = new ManualClock();
 * const ctx = createTestRunContext({ body: bot, clock });
 * const result = gather.run(ctx, { block: 'oak_log', count: 1, maxDistance: 32 });
 * await clock.advance(1_000);
 * ctx.abort();
 */
export function createTestRunContext<Body>(options: TestRunContextOptions<Body>): TestRunContext<Body> {
  const parsed = TestRunContextOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TypeError(`createTestRunContext: ${z.prettifyError(parsed.error)}`);
  const { clock, signal: outer } = parsed.data;
  const controller = new AbortController();
  const abort = (reason: unknown = new StepAbortError('aborted', 'test context aborted')) => controller.abort(reason);
  if (outer?.aborted) abort(outer.reason);
  else outer?.addEventListener('abort', () => abort(outer.reason), { once: true });
  const progressNotes: string[] = [];
  const transitions: string[] = [];
  return {
    body: options.body,
    clock,
    signal: controller.signal,
    blackboard: parsed.data.blackboard ?? createBlackboard(),
    log: parsed.data.log ?? SILENT,
    step: { ...TEST_STEP, ...parsed.data.step },
    progressNotes,
    transitions,
    abort,
    progress: (note) => void progressNotes.push(typeof note === 'string' ? note : 'progress'),
    transition: (nodePath, state) => void transitions.push(`${nodePath}=${state}`),
    now: () => clock.now(),
    sleep: (ms) => sleepOn(clock, ms, controller.signal),
  };
}
