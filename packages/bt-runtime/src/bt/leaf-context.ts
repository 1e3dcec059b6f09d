import { sleepOn } from '../clock/clock.js';
import type { LeafHost, RunState } from './leaves.js';
import type { LeafContext } from './types.js';

/** What every leaf context reads of its run; the getters delegate to the step's RunContext. */
abstract class RunView implements LeafContext<unknown, unknown> {
  abstract readonly nodePath: string;
  abstract readonly runId: number;
  abstract readonly signal: AbortSignal;
  /** The run this context reads. */
  protected abstract readonly current: RunState;
  get args() {
    return this.current.args;
  }
  get body() {
    return this.current.ctx.body;
  }
  get blackboard() {
    return this.current.ctx.blackboard;
  }
  get log() {
    return this.current.ctx.log;
  }
  get step() {
    return this.current.ctx.step;
  }
  progress(note?: string) {
    this.current.ctx.progress(note);
  }
  transition(nodePath: string, state: string) {
    this.current.ctx.transition(nodePath, state);
  }
  now() {
    return this.current.ctx.now();
  }
  /** Sleeps on the run's clock and wakes when this context's signal aborts. */
  sleep(ms: number): Promise<void> {
    return sleepOn(this.current.clock, ms, this.signal);
  }
}

/**
 * The context of one action invocation: its run id and its own signal, aborted when the invocation is (guard,
 * tree abort, step abort). The AbortController is created only when the leaf reads `signal` (most synchronous
 * leaves never do).
 */
export class ActionContext extends RunView {
  #controller: AbortController | undefined;
  /** Why this invocation was aborted; `NOT_ABORTED` until it is. */
  #reason: unknown = NOT_ABORTED;
  constructor(
    protected readonly current: RunState,
    readonly nodePath: string,
    readonly runId: number,
  ) {
    super();
  }
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason !== NOT_ABORTED) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
  /** Aborts this invocation (its signal, now or when first read). */
  abort(reason: unknown): void {
    if (this.#reason !== NOT_ABORTED) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * The context of a condition, guard or callback node: synchronous calls, so one per node of a tree instance (not
 * one per call), reading the run the instance is running; its signal is the step's. Read outside a run, it throws.
 */
export class NodeContext extends RunView {
  readonly runId = 0;
  constructor(
    private readonly host: LeafHost,
    readonly nodePath: string,
  ) {
    super();
  }
  protected get current(): RunState {
    const run = this.host.run;
    if (run === undefined) throw new Error(`${this.nodePath}: a condition's or callback's context was read after its run ended`);
    return run;
  }
  get signal(): AbortSignal {
    return this.current.signal;
  }
}

const NOT_ABORTED = Symbol('not aborted');
