/** One task's method uplift: success rate over its first vs its last `window` recorded outcomes. */
export interface MethodUplift {
  readonly task: string;
  /** Outcomes recorded for the task in this process. */
  readonly outcomes: number;
  /** Success rate over the first min(outcomes, window) outcomes; 0 with none. */
  readonly first: number;
  /** Success rate over the last min(outcomes, window) outcomes; 0 with none. */
  readonly last: number;
  /** `last - first`, in [-1, 1]: > 0 when the memory's method ranking made the task succeed more often. */
  readonly uplift: number;
}

/** Options of the method-effectiveness uplift. */
export interface UpliftOptions {
  /** N, the outcomes in each window (default 20). */
  readonly window?: number;
  /** Tasks tracked; outcomes of further tasks are counted under `other` (default 32). */
  readonly maxTasks?: number;
}

/**
 * Per-task outcome history for method uplift, O(window) memory per task and at most `maxTasks + 1` tasks.
 * A method `obtain.craft` belongs to task `obtain` (the name up to the first `.`); subjects without a `.`
 * (the router's `planner:htn`) are not methods and are ignored. Only outcomes recorded in this process
 * count: a loaded memory file holds totals, not their order.
 */
export class UpliftTracker {
  readonly #window: number;
  readonly #maxTasks: number;
  readonly #tasks = new Map<string, { first: boolean[]; last: boolean[]; outcomes: number }>();

  constructor(options: UpliftOptions = {}) {
    this.#window = Math.max(1, Math.floor(options.window ?? 20));
    this.#maxTasks = Math.max(0, Math.floor(options.maxTasks ?? 32));
  }

  /** Adds one method outcome to its task's windows. */
  record(subject: string, success: boolean): void {
    const dot = subject.indexOf('.');
    if (dot <= 0) return;
    const name = subject.slice(0, dot);
    const task = this.#tasks.has(name) || this.#tasks.size < this.#maxTasks ? name : 'other';
    const entry = this.#tasks.get(task) ?? { first: [], last: [], outcomes: 0 };
    this.#tasks.set(task, entry);
    entry.outcomes += 1;
    if (entry.first.length < this.#window) entry.first.push(success);
    entry.last.push(success);
    if (entry.last.length > this.#window) entry.last.shift();
  }

  /** Uplift per task, sorted by task. */
  uplift(): MethodUplift[] {
    const rate = (window: boolean[]) => (window.length ? window.filter(Boolean).length / window.length : 0);
    return [...this.#tasks.keys()].sort().map((task) => {
      const { first, last, outcomes } = this.#tasks.get(task)!;
      return { task, outcomes, first: rate(first), last: rate(last), uplift: rate(last) - rate(first) };
    });
  }
}
