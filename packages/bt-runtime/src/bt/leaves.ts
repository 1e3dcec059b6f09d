import { describeError, type RunContext } from '@sinew/executor-contracts';
import { State } from 'mistreevous';
import type { Clock } from '../clock/clock.js';
import { isExitCallback, leafFunctionName, type Compiled, type Kind, type Leaf } from './compile.js';
import { ActionContext, NodeContext } from './leaf-context.js';
import { BehaviorNodeError, type LeafContext } from './types.js';

// The agent functions mistreevous calls: one per node call, each owning its leaf's invocations.

/** A registered action, condition or callback as the runner calls it. */
export type LeafFunction = (ctx: LeafContext<unknown, unknown>, ...nodeArgs: unknown[]) => unknown;

/** Why a run stops before its tree finishes. */
export interface Stop {
  readonly code: 'aborted' | 'stuck';
  readonly reason: string;
  readonly nodePath?: string;
}

/** One run of a tree: what its leaves, its node-state hooks and its loop read and write. */
export interface RunState {
  readonly ctx: RunContext<unknown>;
  /** The step's signal (`ctx.signal`, read once when the run starts). */
  readonly signal: AbortSignal;
  readonly args: unknown;
  readonly clock: Clock;
  /** Set when the run must stop: the step's signal aborted, or a node overran its maximum duration. */
  stop?: Stop;
  error?: { nodePath: string; cause: unknown };
  lastFailedLeaf?: string;
  wake?: () => void;
  lastStepAt: number;
  /** Seconds since the previous step (mistreevous' `getDeltaTime`, read by `wait` nodes). */
  delta: number;
  /** When each running leaf started (written only when node durations are tracked). */
  readonly runningSince: Map<string, number>;
}

/** An asynchronous action invocation, owned by the runner until its node reads the result. */
export interface Invocation {
  readonly runId: number;
  readonly leaf: ActionContext;
  settled?: { value: unknown } | { error: unknown };
}

/** What the leaves read of the tree instance that calls them. */
export interface LeafHost {
  readonly run: RunState | undefined;
  /** The pending invocation per action slot. */
  readonly invocations: (Invocation | undefined)[];
  /** Invocations per action slot in the current run (each invocation's `runId`), zeroed when a run starts. */
  readonly runCounts: number[];
}

/** One call of a registered function by one node, in one tree instance. */
interface Binding {
  readonly leaf: Leaf;
  readonly fn: LeafFunction;
  readonly host: LeafHost;
  /** Arguments mistreevous passes (exit callbacks get `{ succeeded, aborted }` before the node's own). */
  readonly arity: number;
  /** The node's context, for a condition, guard or callback (made once per tree instance). */
  readonly nodeContext: NodeContext | undefined;
}

/**
 * The agent object of one tree instance: a function per call, named as `compile` renamed the calls. Its
 * properties are added one by one, which leaves it a dictionary past a dozen: measured, mistreevous' lookup of a
 * function by name on every node update is faster on that than on a fast-mode object read under 48 names.
 */
export function bindLeaves(compiled: Compiled, functions: Record<Kind, Readonly<Record<string, LeafFunction>>>, host: LeafHost): Record<string, unknown> {
  const agent: Record<string, unknown> = {};
  compiled.leaves.forEach((leaf, index) => {
    agent[leafFunctionName(index)] = agentFunction(leaf, functions[leaf.kind][leaf.name]!, host);
  });
  return agent;
}

function agentFunction(leaf: Leaf, fn: LeafFunction, host: LeafHost): (...args: unknown[]) => unknown {
  const arity = isExitCallback(leaf) ? leaf.arity + 1 : leaf.arity;
  const nodeContext = leaf.kind === 'action' ? undefined : new NodeContext(host, leaf.nodePath);
  const binding: Binding = { leaf, fn, host, arity, nodeContext };
  const run = leaf.kind === 'action' ? runAction : leaf.kind === 'condition' ? runCondition : runCallback;
  // Fixed parameters for the common arities (no rest array per call), a rest parameter beyond.
  return arity <= 3 ? (a?: unknown, b?: unknown, c?: unknown) => run(binding, a, b, c, undefined) : (...args: unknown[]) => run(binding, undefined, undefined, undefined, args);
}

/**
 * An action node's call: starts an invocation (a run id, its own context) and returns its state when it is
 * synchronous; otherwise owns its promise (RUNNING until it settles; a stale result is dropped).
 */
function runAction(binding: Binding, a: unknown, b: unknown, c: unknown, rest: unknown[] | undefined): State {
  const { host, leaf } = binding;
  const run = host.run!;
  const current = host.invocations[leaf.slot];
  if (current !== undefined) return current.settled === undefined ? State.RUNNING : collect(host, run, leaf, current.settled);
  // The step was aborted during this tick: no action starts; the next tick halts the tree.
  if (run.stop !== undefined || run.signal.aborted) return State.RUNNING;
  const leafCtx = new ActionContext(run, leaf.nodePath, (host.runCounts[leaf.slot]! += 1));
  let result: unknown;
  try {
    result = invoke(binding, leafCtx, a, b, c, rest);
  } catch (error) {
    return fail(run, leaf.nodePath, error);
  }
  if (!isThenable(result)) return resultState(run, leaf.nodePath, result);
  own(host, run, leaf, result, { runId: leafCtx.runId, leaf: leafCtx });
  return State.RUNNING;
}

/** A condition's or guard's call: synchronous, `true` passes. */
function runCondition(binding: Binding, a: unknown, b: unknown, c: unknown, rest: unknown[] | undefined): boolean {
  const run = binding.host.run!;
  try {
    return invoke(binding, binding.nodeContext!, a, b, c, rest) === true;
  } catch (error) {
    return fail(run, binding.leaf.nodePath, error);
  }
}

/** An `entry`/`step`/`exit` callback's call. */
function runCallback(binding: Binding, a: unknown, b: unknown, c: unknown, rest: unknown[] | undefined): undefined {
  const run = binding.host.run!;
  try {
    invoke(binding, binding.nodeContext!, a, b, c, rest);
  } catch (error) {
    return fail(run, binding.leaf.nodePath, error);
  }
  return undefined;
}

function invoke({ fn, arity }: Binding, ctx: LeafContext<unknown, unknown>, a: unknown, b: unknown, c: unknown, rest: unknown[] | undefined): unknown {
  if (rest !== undefined) return fn(ctx, ...rest);
  return arity === 0 ? fn(ctx) : arity === 1 ? fn(ctx, a) : arity === 2 ? fn(ctx, a, b) : fn(ctx, a, b, c);
}

/** Holds an asynchronous invocation in its slot and wakes the run when it settles, unless it went stale. */
function own(host: LeafHost, run: RunState, leaf: Leaf, promise: PromiseLike<unknown>, invocation: Invocation): void {
  host.invocations[leaf.slot] = invocation;
  const onSettled = (settled: Invocation['settled']) => {
    if (host.invocations[leaf.slot] !== invocation) {
      // A stale run (aborted by a guard or the step): its late result must not reach the restarted node.
      run.ctx.log.debug('stale behavior-tree leaf result dropped', { nodePath: leaf.nodePath, runId: invocation.runId });
      return;
    }
    invocation.settled = settled;
    run.wake?.();
  };
  promise.then(
    (value) => onSettled({ value }),
    (error: unknown) => onSettled({ error }),
  );
}

/** The node reads its settled invocation: the slot is free again. */
function collect(host: LeafHost, run: RunState, leaf: Leaf, settled: NonNullable<Invocation['settled']>): State {
  host.invocations[leaf.slot] = undefined;
  if ('error' in settled) return fail(run, leaf.nodePath, settled.error);
  return resultState(run, leaf.nodePath, settled.value);
}

function resultState(run: RunState, nodePath: string, value: unknown): State.SUCCEEDED | State.FAILED {
  if (value === undefined || value === true || value === 'succeeded') return State.SUCCEEDED;
  if (value === false || value === 'failed') return State.FAILED;
  return fail(run, nodePath, new Error(`returned ${describeError(value)}; expected true/false/'succeeded'/'failed'/nothing`));
}

/** Records the run's first error (mistreevous rewraps what it catches) and throws out of the tree. */
function fail(run: RunState, nodePath: string, cause: unknown): never {
  run.error ??= { nodePath, cause };
  throw new BehaviorNodeError(nodePath, cause);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
