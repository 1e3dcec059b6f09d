import type { RunContext } from '@sinew/executor-contracts';
import { sleepOn, type Clock } from '../clock/clock.js';
import type { LeafContext } from './types.js';

/**
 * The per-invocation context a leaf sees; getters delegate to the step's RunContext. An action's own
 * AbortController is created only when the leaf reads `signal` (most synchronous leaves never do).
 */
export class LeafCtx implements LeafContext<unknown, unknown> {
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
