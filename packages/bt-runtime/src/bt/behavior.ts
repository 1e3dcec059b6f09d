import { describeError, type BehaviorRunner, type RunContext, type RunnerResult } from '@sinew/executor-contracts';
import { BehaviourTree, convertMDSLToJSON, State, validateDefinition, type NodeDetails } from 'mistreevous';
import { sleepOn, systemClock, type Clock, type TimerHandle } from '../clock/clock.js';

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
    readonly code: 'invalid_tree' | 'unknown_leaf' | 'bad_arguments' | 'bad_option',
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

type Def = Record<string, unknown> & { type: string };
/** Guards (`while`/`until`) call conditions. */
type Kind = 'action' | 'condition' | 'callback';

interface Leaf {
  readonly kind: Kind;
  readonly name: string;
  readonly nodePath: string;
  /** Action index into the per-instance invocation table. */
  readonly slot: number;
  /** Number of MDSL arguments the node passes (known from the definition). */
  readonly arity: number;
  readonly isRootGuard?: boolean;
}

interface Compiled {
  readonly definition: Def;
  readonly leaves: readonly Leaf[];
  readonly actionCount: number;
  /** Node paths in the same pre-order as mistreevous' node details. */
  readonly paths: readonly string[];
  readonly leafPaths: ReadonlySet<string>;
}

const LEAF_TYPES = new Set(['action', 'condition', 'wait']);
const ALIVE = '__sinew_alive';

function stateName(state: State): 'ready' | 'running' | 'succeeded' | 'failed' {
  switch (state) {
    case State.RUNNING:
      return 'running';
    case State.SUCCEEDED:
      return 'succeeded';
    case State.FAILED:
      return 'failed';
    default:
      return 'ready';
  }
}

/** Parses, inlines branches, names every node by a stable path, and rewrites every call to a per-node function. */
function compile(tree: string | object, known: Record<Kind, ReadonlySet<string>>): Compiled {
  let roots: Def[];
  try {
    roots = (typeof tree === 'string' ? convertMDSLToJSON(tree) : Array.isArray(tree) ? tree : [tree]) as unknown as Def[];
  } catch (error) {
    throw new BehaviorDefinitionError('invalid_tree', `behavior tree does not parse: ${describeError(error)}`);
  }
  const validation = validateDefinition(roots as never);
  if (!validation.succeeded) throw new BehaviorDefinitionError('invalid_tree', `invalid behavior tree: ${validation.errorMessage ?? 'unknown error'}`);
  const main = roots.find((r) => r.id === undefined);
  if (!main) throw new BehaviorDefinitionError('invalid_tree', 'behavior tree has no main (unnamed) root');
  const named = new Map(roots.filter((r) => typeof r.id === 'string').map((r) => [r.id as string, r]));
  const leaves: Leaf[] = [];
  const paths: string[] = [];
  const leafPaths = new Set<string>();
  const unknown: { name: string; kind: string; nodePath: string }[] = [];
  let actionCount = 0;

  const rename = (attr: unknown, kind: Kind, nodePath: string): Record<string, unknown> | undefined => {
    if (!attr || typeof attr !== 'object') return undefined;
    const a = attr as { call: string; args?: unknown[] };
    if (!known[kind].has(a.call)) unknown.push({ name: a.call, kind: nodePath.endsWith('@while') || nodePath.endsWith('@until') ? 'guard' : kind, nodePath });
    leaves.push({ kind, name: a.call, nodePath, slot: -1, arity: a.args?.length ?? 0 });
    return { ...a, call: `__sinew_${leaves.length - 1}` };
  };

  const walk = (node: Def, path: string, stack: readonly string[]): Def => {
    const out: Def = { ...node };
    paths.push(path);
    const name = typeof node.call === 'string' ? node.call : undefined;
    if (node.type === 'action' || node.type === 'condition') {
      const kind: Kind = node.type;
      if (!known[kind].has(name!)) unknown.push({ name: name!, kind, nodePath: path });
      leaves.push({ kind, name: name!, nodePath: path, slot: kind === 'action' ? actionCount++ : -1, arity: Array.isArray(node.args) ? node.args.length : 0 });
      out.call = `__sinew_${leaves.length - 1}`;
    }
    if (LEAF_TYPES.has(node.type)) leafPaths.add(path);
    for (const guard of ['while', 'until'] as const) {
      const renamed = rename(node[guard], 'condition', `${path}@${guard}`);
      if (renamed) out[guard] = renamed;
    }
    for (const callback of ['entry', 'step', 'exit'] as const) {
      const renamed = rename(node[callback], 'callback', `${path}@${callback}`);
      if (renamed) out[callback] = renamed;
    }
    const childDefs = (Array.isArray(node.children) ? node.children : node.child ? [node.child] : []) as Def[];
    const children = childDefs.map((child, index) => {
      if (child.type === 'branch') {
        const ref = child.ref as string;
        if (stack.includes(ref)) throw new BehaviorDefinitionError('invalid_tree', `branch cycle through "${ref}" at ${path}`);
        const target = named.get(ref);
        if (!target) throw new BehaviorDefinitionError('invalid_tree', `branch [${ref}] at ${path} names no root in this tree`);
        const inner = target.child as Def;
        return walk(inner, `${path}/branch:${ref}[${index}]/${segment(inner, 0)}`, [...stack, ref]);
      }
      return walk(child, `${path}/${segment(child, index)}`, stack);
    });
    if (Array.isArray(node.children)) out.children = children;
    else if (node.child) out.child = children[0];
    return out;
  };

  const definition = walk(main, 'root', []);
  if (unknown.length > 0) {
    const list = unknown.map((u) => `${u.kind} "${u.name}" at ${u.nodePath}`).join('; ');
    throw new BehaviorDefinitionError('unknown_leaf', `behavior tree references unregistered functions: ${list}`, unknown);
  }
  // Abort arrives through a guard on the root, so mistreevous aborts running nodes and calls their exit callbacks.
  if (definition.while) {
    const index = Number(String((definition.while as { call: string }).call).slice('__sinew_'.length));
    leaves[index] = { ...leaves[index]!, isRootGuard: true };
  } else {
    definition.while = { call: ALIVE };
  }
  delete definition.id;
  return { definition, leaves, actionCount, paths, leafPaths };
}

/**
 * A node that passes fewer arguments than its function requires fails the build, naming the node. A function's
 * `length` counts its parameters before the first default or rest one (the ones every call must pass): the leaf
 * context, an exit callback's `{ succeeded, aborted }`, then the node's own. More is allowed (a rest parameter).
 */
function checkArguments(leaves: readonly Leaf[], functions: Record<Kind, Record<string, (...a: never[]) => unknown>>): void {
  const wrong: string[] = [];
  for (const leaf of leaves) {
    const required = functions[leaf.kind][leaf.name]!.length - (leaf.kind === 'callback' && leaf.nodePath.endsWith('@exit') ? 2 : 1);
    if (leaf.arity < required) wrong.push(`${leaf.kind} "${leaf.name}" at ${leaf.nodePath} needs ${required} argument${required === 1 ? '' : 's'}, the node passes ${leaf.arity}`);
  }
  if (wrong.length > 0) throw new BehaviorDefinitionError('bad_arguments', `behavior tree nodes pass too few arguments: ${wrong.join('; ')}`);
}

function segment(node: Def, index: number): string {
  const name = typeof node.call === 'string' ? `:${node.call}` : '';
  return `${node.type}${name}[${index}]`;
}

interface Invocation {
  readonly runId: number;
  readonly leaf: LeafCtx;
  settled?: { value: unknown } | { error: unknown };
}

interface RunState {
  readonly ctx: RunContext<unknown>;
  readonly args: unknown;
  readonly clock: Clock;
  /** Set when the run must stop: the step's signal aborted, or a node overran its maximum duration. */
  stop?: { code: 'aborted' | 'stuck'; reason: string; nodePath?: string };
  error?: { nodePath: string; cause: unknown };
  lastFailedLeaf?: string;
  wake?: () => void;
  lastStepAt: number;
  delta: number;
  readonly runningSince: Map<string, number>;
  readonly runCounters: number[];
  /** Condition and callback contexts, one per leaf per run. */
  readonly leafCtxs: (LeafCtx | undefined)[];
}

/** What a state change needs to know about a node, looked up once by mistreevous UID. */
interface NodeInfo {
  readonly path: string;
  readonly leaf: boolean;
  /** Action slot, or -1. */
  readonly slot: number;
}

interface Instance {
  readonly tree: BehaviourTree;
  readonly invocations: (Invocation | undefined)[];
  readonly nodes: Map<string, NodeInfo>;
  run?: RunState;
}

function toState(value: unknown, nodePath: string): State.SUCCEEDED | State.FAILED {
  if (value === undefined || value === true || value === 'succeeded') return State.SUCCEEDED;
  if (value === false || value === 'failed') return State.FAILED;
  throw new BehaviorNodeError(nodePath, new Error(`returned ${describeError(value)}; expected true/false/'succeeded'/'failed'/nothing`));
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The per-invocation context a leaf sees; getters delegate to the step's RunContext. An action's own
 * AbortController is created only when the leaf reads `signal` (most synchronous leaves never do).
 */
class LeafCtx implements LeafContext<unknown, unknown> {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  constructor(
    private readonly base: RunContext<unknown>,
    private readonly clock: Clock,
    private readonly fixedSignal: AbortSignal | undefined,
    readonly args: unknown,
    readonly nodePath: string,
    readonly runId: number,
  ) {}
  get signal(): AbortSignal {
    if (this.fixedSignal) return this.fixedSignal;
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
  /** Aborts this invocation (its signal, now or when first read). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
  get body() {
    return this.base.body;
  }
  get blackboard() {
    return this.base.blackboard;
  }
  get log() {
    return this.base.log;
  }
  get step() {
    return this.base.step;
  }
  progress(note?: string) {
    this.base.progress(note);
  }
  transition(nodePath: string, state: string) {
    this.base.transition(nodePath, state);
  }
  now() {
    return this.base.now();
  }
  /** Sleeps on the run's clock and wakes when this invocation is aborted, not only the step. */
  sleep(ms: number): Promise<void> {
    return sleepOn(this.clock, ms, this.signal);
  }
}

const ANY_NAME: ReadonlySet<string> = { has: () => true } as unknown as ReadonlySet<string>;

/**
 * The stable node paths of a tree definition (MDSL or JSON), in definition order, without binding its
 * leaves: what an inspector needs to draw a capability's tree. An invalid tree throws a BehaviorDefinitionError.
 */
export function behaviorNodePaths(tree: string | object): readonly string[] {
  return compile(tree, { action: ANY_NAME, condition: ANY_NAME, callback: ANY_NAME }).paths;
}

/**
 * A capability runner backed by a mistreevous behavior tree. Sinew owns every leaf invocation (run id,
 * AbortController, stale results dropped), steps again as soon as a leaf settles, reports node
 * transitions as progress, enforces `maxNodeDurationMs`, and aborts through a root guard so exit
 * callbacks run. Unknown leaf names throw a BehaviorDefinitionError here, at build time.
 *
 * @example
 * const TARGET = blackboardKey<Block>('dig.target');
 * const gather = defineBehavior<Bot, { block: string }>({
 *   tree: `root { sequence { action [Find] action [Dig] } }`,
 *   actions: { Find: (ctx) => { ctx.blackboard.set(TARGET, findBlock(ctx.body, ctx.args.block)); }, Dig: async (ctx) => { await ctx.body.dig(ctx.blackboard.get(TARGET)!); } },
 * });
 */
export function defineBehavior<Body, Args>(options: BehaviorOptions<Body, Args>): BehaviorTreeRunner<Body, Args> {
  const actions = options.actions as Record<string, (ctx: LeafContext<unknown, unknown>, ...a: unknown[]) => unknown>;
  const conditions = (options.conditions ?? {}) as Record<string, (ctx: LeafContext<unknown, unknown>, ...a: unknown[]) => unknown>;
  const callbacks = (options.callbacks ?? {}) as Record<string, (ctx: LeafContext<unknown, unknown>, ...a: unknown[]) => unknown>;
  const tickMs = options.tickMs ?? 50;
  const maxNodeDurationMs = options.maxNodeDurationMs;
  if (!(tickMs > 0)) throw new BehaviorDefinitionError('bad_option', `tickMs must be > 0, got ${tickMs}`);
  if (maxNodeDurationMs !== undefined && !(maxNodeDurationMs > 0)) {
    throw new BehaviorDefinitionError('bad_option', `maxNodeDurationMs must be > 0, got ${maxNodeDurationMs}`);
  }
  const own = (record: Record<string, unknown>) => new Set(Object.keys(record).filter((k) => typeof record[k] === 'function'));
  const compiled = compile(options.tree, { action: own(actions), condition: own(conditions), callback: own(callbacks) });
  checkArguments(compiled.leaves, { action: actions, condition: conditions, callback: callbacks });
  const pool: Instance[] = [];

  const actionSlots = new Map(compiled.leaves.filter((l) => l.kind === 'action').map((l) => [l.nodePath, l.slot]));

  const build = (): Instance => {
    const agent: Record<string, unknown> = {};
    const instance: Instance = { tree: undefined as unknown as BehaviourTree, invocations: new Array(compiled.actionCount), nodes: new Map() };
    const fail = (run: RunState, nodePath: string, cause: unknown): never => {
      run.error ??= { nodePath, cause };
      throw new BehaviorNodeError(nodePath, cause);
    };
    agent[ALIVE] = () => instance.run !== undefined && instance.run.stop === undefined;
    compiled.leaves.forEach((leaf, index) => {
      const name = `__sinew_${index}`;
      if (leaf.kind === 'action') {
        const action = actions[leaf.name]!;
        const arity = leaf.arity;
        // Fixed parameters for the common arities: no rest array per call.
        agent[name] = (a?: unknown, b?: unknown, c?: unknown, ...more: unknown[]) => {
          const run = instance.run!;
          const current = instance.invocations[leaf.slot];
          if (current === undefined) {
            const runId = (run.runCounters[leaf.slot] = (run.runCounters[leaf.slot] ?? 0) + 1);
            const leafCtx = new LeafCtx(run.ctx, run.clock, undefined, run.args, leaf.nodePath, runId);
            if (run.ctx.signal.aborted) leafCtx.abort(run.ctx.signal.reason);
            let result: unknown;
            try {
              result =
                arity === 0 ? action(leafCtx) : arity === 1 ? action(leafCtx, a) : arity === 2 ? action(leafCtx, a, b) : action(leafCtx, a, b, c, ...more);
            } catch (error) {
              return fail(run, leaf.nodePath, error);
            }
            if (!isThenable(result)) {
              try {
                return toState(result, leaf.nodePath);
              } catch (error) {
                return fail(run, leaf.nodePath, (error as BehaviorNodeError).cause);
              }
            }
            const invocation: Invocation = { runId, leaf: leafCtx };
            instance.invocations[leaf.slot] = invocation;
            const onSettled = (settled: Invocation['settled']) => {
              if (instance.invocations[leaf.slot] !== invocation) {
                // A stale run (aborted by a guard or the step): its late result must not reach the restarted node.
                run.ctx.log.debug('stale behavior-tree leaf result dropped', { nodePath: leaf.nodePath, runId });
                return;
              }
              invocation.settled = settled;
              run.wake?.();
            };
            result.then(
              (value) => onSettled({ value }),
              (error: unknown) => onSettled({ error }),
            );
            return State.RUNNING;
          }
          if (!current.settled) return State.RUNNING;
          instance.invocations[leaf.slot] = undefined;
          if ('error' in current.settled) return fail(run, leaf.nodePath, current.settled.error);
          try {
            return toState(current.settled.value, leaf.nodePath);
          } catch (error) {
            return fail(run, leaf.nodePath, (error as BehaviorNodeError).cause);
          }
        };
      } else {
        const isCallback = leaf.kind === 'callback';
        const fn = (isCallback ? callbacks : conditions)[leaf.name]!;
        // Exit callbacks get `{ succeeded, aborted }` before the node's own arguments.
        const arity = isCallback && leaf.nodePath.endsWith('@exit') ? leaf.arity + 1 : leaf.arity;
        const isRootGuard = leaf.isRootGuard === true;
        agent[name] = (a?: unknown, b?: unknown, c?: unknown, ...more: unknown[]) => {
          const run = instance.run!;
          if (isRootGuard && run.stop !== undefined) return false;
          const leafCtx = (run.leafCtxs[index] ??= new LeafCtx(run.ctx, run.clock, run.ctx.signal, run.args, leaf.nodePath, 0));
          try {
            const value = arity === 0 ? fn(leafCtx) : arity === 1 ? fn(leafCtx, a) : arity === 2 ? fn(leafCtx, a, b) : fn(leafCtx, a, b, c, ...more);
            return isCallback ? undefined : value === true;
          } catch (error) {
            return fail(run, leaf.nodePath, error);
          }
        };
      }
    });
    const leafPaths = compiled.leafPaths;
    const tracksDuration = maxNodeDurationMs !== undefined;
    const onChange = (node: NodeInfo | undefined, previousState: State, state: State): void => {
      // Resets (done → ready) are not transitions worth reporting; an abort (running → ready) is.
      const aborted = state === State.READY;
      if (aborted && previousState !== State.RUNNING) return;
      const run = instance.run;
      if (!run || node === undefined) return;
      if (node.leaf) {
        if (tracksDuration) {
          if (state === State.RUNNING) run.runningSince.set(node.path, run.clock.now());
          else run.runningSince.delete(node.path);
        }
        if (state === State.FAILED) run.lastFailedLeaf = node.path;
        if (aborted && node.slot >= 0) abortInvocation(instance, node);
      }
      run.ctx.transition(node.path, aborted ? 'aborted' : stateName(state));
    };
    const getDeltaTime = () => instance.run?.delta ?? 0;
    const alive = compiled.definition.while && (compiled.definition.while as { call: string }).call === ALIVE ? (agent[ALIVE] as () => boolean) : undefined;
    let tree = new BehaviourTree(compiled.definition as never, agent, { getDeltaTime });
    mapNodes(tree, instance, compiled.paths, leafPaths, actionSlots);
    if (!hookNodes(tree, instance.nodes, onChange, alive)) {
      // Not the mistreevous this was written for: the public (slower) state-change option instead.
      tree = new BehaviourTree(compiled.definition as never, agent, {
        getDeltaTime,
        onNodeStateChange: (details) => onChange(instance.nodes.get(details.id), details.previousState, details.state),
      });
      instance.nodes.clear();
      mapNodes(tree, instance, compiled.paths, leafPaths, actionSlots);
    }
    (instance as { tree: BehaviourTree }).tree = tree;
    return instance;
  };

  const abortInvocation = (instance: Instance, node: NodeInfo) => {
    const invocation = instance.invocations[node.slot];
    if (!invocation) return;
    instance.invocations[node.slot] = undefined;
    invocation.leaf.abort(new BehaviorNodeError(node.path, new Error('node aborted')));
  };

  const run = async (ctx: RunContext<Body>, args: Args): Promise<RunnerResult> => {
    const base = ctx as unknown as RunContext<unknown> & { clock?: Clock };
    const clock = base.clock ?? options.clock ?? systemClock;
    const instance = pool.pop() ?? build();
    const state: RunState = {
      ctx: base,
      args,
      clock,
      lastStepAt: clock.now(),
      delta: 0,
      // Only written when node durations are tracked.
      runningSince: maxNodeDurationMs === undefined ? NO_DURATIONS : new Map(),
      runCounters: [],
      leafCtxs: [],
    };
    instance.run = state;
    // Listen for abort only once the tree has to wait (a synchronous tree finishes in its first step).
    let onAbort: (() => void) | undefined;
    if (base.signal.aborted) stopOnAbort(state);
    let reusable = false;
    try {
      for (;;) {
        const now = clock.now();
        state.delta = (now - state.lastStepAt) / 1000;
        state.lastStepAt = now;
        if (maxNodeDurationMs !== undefined && state.stop === undefined) {
          for (const [nodePath, since] of state.runningSince) {
            if (now - since >= maxNodeDurationMs) {
              state.stop = { code: 'stuck', reason: `node ${nodePath} ran ${now - since} ms (maxNodeDurationMs ${maxNodeDurationMs})`, nodePath };
              break;
            }
          }
        }
        try {
          instance.tree.step();
        } catch (error) {
          state.error ??= { nodePath: 'root', cause: error };
        }
        if (state.error) {
          for (let slot = 0; slot < instance.invocations.length; slot += 1) instance.invocations[slot]?.leaf.abort(new Error('behavior tree failed'));
          const { nodePath, cause } = state.error;
          return { ok: false, code: 'runner_error', reason: `behavior tree node ${nodePath} failed: ${describeError(cause)}`, nodePath };
        }
        const treeState = instance.tree.getState();
        if (treeState === State.SUCCEEDED || treeState === State.FAILED) {
          reusable = true;
          if (state.stop) {
            const { code, reason, nodePath } = state.stop;
            return { ok: false, code, reason, ...(nodePath ? { nodePath } : {}) };
          }
          if (treeState === State.SUCCEEDED) return undefined;
          const nodePath = state.lastFailedLeaf ?? 'root';
          return { ok: false, code: 'runner_error', reason: `behavior tree failed at ${nodePath}`, nodePath };
        }
        if (!onAbort) {
          onAbort = stopOnAbort.bind(undefined, state);
          if (base.signal.aborted) onAbort();
          else base.signal.addEventListener('abort', onAbort, { once: true });
        }
        await new Promise<void>((resolve) => {
          let timer: TimerHandle | undefined;
          state.wake = () => {
            state.wake = undefined;
            if (timer !== undefined) clock.clearTimeout(timer);
            resolve();
          };
          if (state.stop || hasSettled(instance)) state.wake();
          else timer = clock.setTimeout(() => state.wake?.(), nextWakeMs(state, tickMs, maxNodeDurationMs, clock.now()));
        });
      }
    } finally {
      if (onAbort) base.signal.removeEventListener('abort', onAbort);
      state.wake = undefined;
      instance.run = undefined;
      if (reusable && pool.length < 8) pool.push(instance);
    }
  };

  return { kind: 'behavior-tree', nodePaths: compiled.paths, run };
}

/** Maps mistreevous' random UIDs to our stable paths: both trees are walked in the same pre-order. */
function mapNodes(tree: BehaviourTree, instance: Instance, paths: readonly string[], leafPaths: ReadonlySet<string>, actionSlots: ReadonlyMap<string, number>): void {
  let i = 0;
  const visit = (details: NodeDetails) => {
    const path = paths[i++];
    if (path !== undefined) instance.nodes.set(details.id, { path, leaf: leafPaths.has(path), slot: actionSlots.get(path) ?? -1 });
    for (const child of details.children ?? []) visit(child);
  };
  visit(tree.getTreeNodeDetails());
}

/** The parts of a mistreevous 4.3 node this runner hooks. */
interface MistreevousNode {
  readonly uid: string;
  readonly children?: readonly MistreevousNode[];
  readonly child?: MistreevousNode;
  readonly attributes?: { readonly while?: { readonly condition?: string; isSatisfied?: unknown } };
  getState(): State;
  onStateChanged(previousState: State): void;
}

/**
 * Reports state changes straight from each node (mistreevous' `onNodeStateChange` option builds a details
 * object per change) and answers the root abort guard without a function lookup per node update (mistreevous
 * evaluates a root guard before every node). False, hooking nothing, when the tree is not shaped as expected.
 */
function hookNodes(tree: BehaviourTree, nodes: ReadonlyMap<string, NodeInfo>, onChange: (node: NodeInfo | undefined, previous: State, state: State) => void, alive: (() => boolean) | undefined): boolean {
  const root = (tree as unknown as { _rootNode?: MistreevousNode })._rootNode;
  const all: MistreevousNode[] = [];
  const collect = (node: MistreevousNode | undefined): boolean => {
    if (!node || typeof node.uid !== 'string' || !nodes.has(node.uid) || typeof node.getState !== 'function' || typeof node.onStateChanged !== 'function') return false;
    all.push(node);
    const children = node.children ?? (node.child ? [node.child] : []);
    return children.every(collect);
  };
  const guard = root?.attributes?.while;
  if (!collect(root) || all.length !== nodes.size || (alive && (guard?.condition !== ALIVE || typeof guard.isSatisfied !== 'function'))) return false;
  for (const node of all) {
    const info = nodes.get(node.uid);
    node.onStateChanged = (previousState: State) => onChange(info, previousState, node.getState());
  }
  if (alive && guard) guard.isSatisfied = alive;
  return true;
}

/** The `runningSince` of runs that track no node durations (never written). */
const NO_DURATIONS = new Map<string, number>();

/** The step's signal aborted: the run stops at its next step. */
function stopOnAbort(state: RunState): void {
  state.stop ??= { code: 'aborted', reason: 'the step was aborted' };
  state.wake?.();
}

function hasSettled(instance: Instance): boolean {
  for (const invocation of instance.invocations) if (invocation?.settled) return true;
  return false;
}

function nextWakeMs(state: RunState, tickMs: number, maxNodeDurationMs: number | undefined, now: number): number {
  if (maxNodeDurationMs === undefined) return tickMs;
  let next = tickMs;
  for (const since of state.runningSince.values()) next = Math.min(next, Math.max(0, since + maxNodeDurationMs - now));
  return next;
}
