interface Waiter {
  readonly priority: boolean;
  readonly resolve: (granted: boolean) => void;
}

/**
 * The executor's single active-step slot (I1): a mutex whose priority waiters (preemptions, resumes)
 * are served before plain ones.
 */
export class StepSlot {
  #held = false;
  readonly #waiters: Waiter[] = [];

  /** Resolves true when the slot is ours, false if `signal` aborted first. */
  acquire(options: { priority?: boolean; signal?: AbortSignal } = {}): Promise<boolean> {
    const { priority = false, signal } = options;
    if (signal?.aborted) return Promise.resolve(false);
    if (!this.#held && this.#waiters.length === 0) {
      this.#held = true;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        resolve(false);
      };
      const waiter: Waiter = {
        priority,
        resolve: (granted) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(granted);
        },
      };
      if (priority) {
        const firstPlain = this.#waiters.findIndex((w) => !w.priority);
        this.#waiters.splice(firstPlain < 0 ? this.#waiters.length : firstPlain, 0, waiter);
      } else {
        this.#waiters.push(waiter);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next.resolve(true);
    else this.#held = false;
  }

  hasPriorityWaiter(): boolean {
    return this.#waiters[0]?.priority === true;
  }

  waiting(): number {
    return this.#waiters.length;
  }
}
