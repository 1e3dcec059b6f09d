interface Waiter {
  /** Preemptions and resumes after a preemption: served before every plain waiter. */
  readonly priority: boolean;
  /** The step's `priority` (higher first; equal ranks first-in-first-out). */
  readonly rank: number;
  /** A priority waiter's preemption tier (higher first among priority waiters); 0 for others. */
  readonly tier: number;
  readonly resolve: (granted: boolean) => void;
}

export interface AcquireOptions {
  readonly priority?: boolean;
  /** The step's priority; default 0. */
  readonly rank?: number;
  /** Queue ahead of waiters of the same rank (a step resuming after a takeover keeps its turn). */
  readonly ahead?: boolean;
  /** A preemption's tier: a priority waiter queues ahead of priority waiters of a lower tier; default 0. */
  readonly tier?: number;
  readonly signal?: AbortSignal;
}

/**
 * The executor's single active-step slot (I1): a mutex whose priority waiters (preemptions, resumes)
 * are served first (a higher preemption tier first), then plain waiters by rank (step priority), first-in-first-out within a rank.
 */
export class StepSlot {
  #held = false;
  readonly #waiters: Waiter[] = [];

  /** Resolves true when the slot is ours, false if `signal` aborted first. */
  acquire(options: AcquireOptions = {}): Promise<boolean> {
    const { priority = false, rank = 0, ahead = false, tier = 0, signal } = options;
    if (signal?.aborted) return Promise.resolve(false);
    if (this.tryAcquire()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        resolve(false);
      };
      const waiter: Waiter = {
        priority,
        rank,
        tier,
        resolve: (granted) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(granted);
        },
      };
      const before = priority ? this.#waiters.findIndex((w) => !w.priority || w.tier < tier) : this.#waiters.findIndex((w) => !w.priority && (ahead ? w.rank <= rank : w.rank < rank));
      this.#waiters.splice(before < 0 ? this.#waiters.length : before, 0, waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Takes the slot at once when it is free and nobody waits (no promise); false otherwise. */
  tryAcquire(): boolean {
    if (this.#held || this.#waiters.length > 0) return false;
    this.#held = true;
    return true;
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next.resolve(true);
    else this.#held = false;
  }

  /** Whether the first waiter takes over from a holder of `rank` at its next safe point, and why. */
  takeover(rank: number): 'preemption' | 'priority' | undefined {
    const first = this.#waiters[0];
    if (!first) return undefined;
    if (first.priority) return 'preemption';
    return first.rank > rank ? 'priority' : undefined;
  }

  waiting(): number {
    return this.#waiters.length;
  }
}
