import { BehaviourTree, State } from 'mistreevous';
import type { Compiled, Kind, NodeInfo } from './compile.js';
import { bindLeaves, type Invocation, type LeafFunction, type LeafHost, type RunState } from './leaves.js';
import { BehaviorNodeError } from './types.js';

// The mistreevous adapter: one BehaviourTree per instance, its nodes hooked for state changes, halted from the
// root. Written against mistreevous 4.3's node internals (the package pins 4.3.1); a build fails loudly if they moved.

/** The parts of a mistreevous 4.3 node this adapter uses. */
interface MistreevousNode {
  readonly type: string;
  readonly children?: readonly MistreevousNode[];
  readonly child?: MistreevousNode;
  _state: State;
  getState(): State;
  setState(state: State): void;
  abort(agent: unknown): void;
}

/** The transition label of a state a node moved into (READY, after RUNNING, is an abort). Compares, not a lookup keyed by a varying string. */
function label(state: State): string {
  return state === State.SUCCEEDED ? 'succeeded' : state === State.FAILED ? 'failed' : state === State.RUNNING ? 'running' : 'aborted';
}

/** One mistreevous tree bound to its leaves; runs use it one at a time. */
export class TreeInstance implements LeafHost {
  run: RunState | undefined;
  readonly invocations: (Invocation | undefined)[];
  readonly runCounts: number[];
  readonly #tree: BehaviourTree;
  readonly #root: MistreevousNode;
  readonly #agent: Record<string, unknown>;

  constructor(
    compiled: Compiled,
    functions: Record<Kind, Readonly<Record<string, LeafFunction>>>,
    private readonly tracksDuration: boolean,
  ) {
    this.invocations = new Array<Invocation | undefined>(compiled.actionCount).fill(undefined);
    this.runCounts = new Array<number>(compiled.actionCount).fill(0);
    this.#agent = bindLeaves(compiled, functions, this);
    this.#tree = new BehaviourTree(compiled.definition as never, this.#agent, { getDeltaTime: () => this.run?.delta ?? 0 });
    this.#root = (this.#tree as unknown as { _rootNode: MistreevousNode })._rootNode;
    hookNodes(this.#root, compiled.nodes, this);
  }

  /** Binds a run to this instance: its leaves and hooks read it until `end`. */
  begin(run: RunState): void {
    this.run = run;
    this.runCounts.fill(0);
  }

  end(): void {
    this.run = undefined;
  }

  /** One mistreevous step (a finished tree is reset first). */
  step(): void {
    this.#tree.step();
  }

  state(): State {
    return this.#root.getState();
  }

  /**
   * Stops the tree as a failing root guard would, once per tick instead of a guard evaluated before every node:
   * running nodes are aborted (their exit callbacks run, their invocations abort) and the root fails.
   */
  halt(): void {
    this.#root.abort(this.#agent);
    this.#root.setState(State.FAILED);
  }

  /** Whether an invocation has settled since the tree last read it (the run steps again at once). */
  hasSettled(): boolean {
    for (const invocation of this.invocations) if (invocation?.settled) return true;
    return false;
  }

  /** Aborts every pending invocation (the run failed). */
  abortInvocations(reason: unknown): void {
    for (const invocation of this.invocations) invocation?.leaf.abort(reason);
  }

  /** A node changed state (not a reset: `hookNodes` filters those). Called by the hooked nodes themselves (no closure between). */
  nodeChanged(info: NodeInfo, state: State): void {
    const run = this.run;
    if (run === undefined) return;
    if (state === State.READY) {
      if (info.leaf) this.#leafAborted(run, info);
    } else if (info.leaf) {
      if (this.tracksDuration) {
        if (state === State.RUNNING) run.runningSince.set(info.path, run.clock.now());
        else run.runningSince.delete(info.path);
      }
      if (state === State.FAILED) run.lastFailedLeaf = info.path;
    }
    run.ctx.transition(info.path, label(state));
  }

  #leafAborted(run: RunState, info: NodeInfo): void {
    if (this.tracksDuration) run.runningSince.delete(info.path);
    const invocation = info.slot >= 0 ? this.invocations[info.slot] : undefined;
    if (invocation === undefined) return;
    this.invocations[info.slot] = undefined;
    invocation.leaf.abort(new BehaviorNodeError(info.path, new Error('node aborted')));
  }
}

/** What a hooked node carries: its compiled info and the instance it reports to. */
interface NodeHook {
  readonly info: NodeInfo;
  readonly instance: TreeInstance;
}

/** A hooked mistreevous node (the hook is one own property, the same on every node). */
interface HookedNode extends MistreevousNode {
  _sinewHook: NodeHook;
}

/**
 * mistreevous' own setState minus its onStateChanged (which only feeds the unused onNodeStateChange option), plus the
 * report of a transition. One function shared by every hooked node (not a closure per node): mistreevous' calls of
 * `this.setState` keep a single target, which the JIT can inline.
 */
function hookedSetState(this: HookedNode, state: State): void {
  const previous = this._state;
  this._state = state;
  // Resets (done → ready) are not transitions worth reporting; an abort (running → ready) is.
  if (previous !== state && (state !== State.READY || previous === State.RUNNING)) this._sinewHook.instance.nodeChanged(this._sinewHook.info, state);
}

/**
 * Reports state changes straight from each node's `setState`: mistreevous' `onNodeStateChange` option builds a
 * details object per change, and a replaced `onStateChanged` would give the hooked nodes another shape than
 * mistreevous' own (slower property access in all of its code). Nodes are matched to the compiled ones by
 * pre-order position and type.
 */
function hookNodes(root: MistreevousNode, nodes: readonly NodeInfo[], instance: TreeInstance): void {
  const all: MistreevousNode[] = [];
  const collect = (node: MistreevousNode) => {
    all.push(node);
    for (const child of node.children ?? (node.child ? [node.child] : [])) collect(child);
  };
  if (root) collect(root);
  const unexpected = all.length !== nodes.length || all.some((node, i) => node.type !== nodes[i]!.type || !Object.hasOwn(node, 'setState') || typeof node.abort !== 'function');
  if (unexpected) throw new Error('@sinew/bt-runtime: mistreevous is not shaped as 4.3.1 (the version it pins): its nodes cannot be hooked');
  all.forEach((node, i) => {
    const hooked = node as HookedNode;
    hooked._sinewHook = { info: nodes[i]!, instance };
    hooked.setState = hookedSetState;
  });
}

/** The free tree instances of one behavior: a run takes one (or builds it) and gives it back when it finished cleanly. */
export class TreePool {
  readonly #free: TreeInstance[] = [];
  constructor(private readonly build: () => TreeInstance) {}
  take(): TreeInstance {
    return this.#free.pop() ?? this.build();
  }
  release(instance: TreeInstance): void {
    if (this.#free.length < 8) this.#free.push(instance);
  }
}
