import { describeError, type BehaviorRunner, type RunContext } from '@sinew/executor-contracts';
import type { Clock } from '../clock/clock.js';

// The public shapes of `defineBehavior`: options, leaf functions and their context, the runner, its errors.

/** What a leaf returns: `true`/nothing/'succeeded' succeed, `false`/'failed' fail. */
export type LeafStatus = boolean | void | 'succeeded' | 'failed';

/** An MDSL node argument: `action [Dig, "oak_log", 3, true]`. */
export type NodeArgument = string | number | boolean | null;

/** What a leaf gets: the step's RunContext plus the capability args, its node path and its own abort signal. */
export interface LeafContext<Body, Args> extends RunContext<Body> {
  /** Aborted when this leaf invocation is aborted (guard, tree abort, step abort). */
  readonly signal: AbortSignal;
  readonly args: Args;
  /** Stable path of the node, e.g. `root/sequence[0]/action:Dig[1]`. */
  readonly nodePath: string;
  /** Increments per invocation of this node within a run. */
  readonly runId: number;
}

// `never[]` rest parameters let users declare the MDSL args they expect: `(ctx, block: string) => ...`.
/** An action leaf: may be async; its promise is owned by the runner (run id, abort, stale results dropped). */
export type BehaviorAction<Body, Args> = (ctx: LeafContext<Body, Args>, ...nodeArgs: never[]) => LeafStatus | Promise<LeafStatus>;
/** A condition leaf or guard (`while`/`until`): synchronous. */
export type BehaviorCondition<Body, Args> = (ctx: LeafContext<Body, Args>, ...nodeArgs: never[]) => boolean;
/** An `entry`/`step`/`exit` callback; `exit` callbacks receive `{ succeeded, aborted }` first. */
export type BehaviorCallback<Body, Args> = (ctx: LeafContext<Body, Args>, ...callbackArgs: never[]) => void;

/** Options of `defineBehavior`: the tree definition and its leaves. */
export interface BehaviorOptions<Body, Args> {
  /** The tree in MDSL (or mistreevous JSON). `branch [Name]` subtrees must be defined in the same text. */
  readonly tree: string | object;
  readonly actions: Readonly<Record<string, BehaviorAction<Body, Args>>>;
  readonly conditions?: Readonly<Record<string, BehaviorCondition<Body, Args>>>;
  readonly callbacks?: Readonly<Record<string, BehaviorCallback<Body, Args>>>;
  /** FM-03: a leaf RUNNING longer than this fails the run with code `stuck` and its node path. */
  readonly maxNodeDurationMs?: number;
  /** Re-step cadence while waiting on `wait` nodes and guards (ms). Default 50. */
  readonly tickMs?: number;
  /** Clock for ticks, `wait` nodes and node durations when the RunContext carries none (the executor's does). */
  readonly clock?: Clock;
}

/** A behavior-tree runner; pass it as `defineCapability({ defineBehavior })`. */
export interface BehaviorTreeRunner<Body, Args> extends BehaviorRunner<Body, Args> {
  readonly kind: 'behavior-tree';
  /** Every node path of the tree, in definition order. */
  readonly nodePaths: readonly string[];
}

/** A behavior tree that `defineBehavior` refused (an unknown leaf, a bad definition), naming the node. */
export class BehaviorDefinitionError extends Error {
  override readonly name = 'BehaviorDefinitionError';
  constructor(
    readonly code: 'invalid_tree' | 'unknown_leaf' | 'bad_arguments',
    message: string,
    readonly unknown: readonly { readonly name: string; readonly kind: string; readonly nodePath: string }[] = [],
  ) {
    super(message);
  }
}

/** A leaf throw/rejection, carrying the node path (like BehaviorTree.CPP's exceptions). */
export class BehaviorNodeError extends Error {
  override readonly name = 'BehaviorNodeError';
  constructor(
    readonly nodePath: string,
    override readonly cause: unknown,
  ) {
    super(`${nodePath}: ${describeError(cause)}`);
  }
}
