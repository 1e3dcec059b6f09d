import type { PlanStep, PreemptOptions, Preemptor, StepOutcome } from '@sinew/executor-contracts';

interface Call {
  readonly steps: readonly PlanStep[];
  readonly reason: string;
  /** The hold the caller asked for after the preemption (self-preservation modes), and what it holds. */
  readonly holdMs: number | undefined;
  readonly holds: 'caution' | 'all' | undefined;
  /** The preemption tier asked (a higher one stops a running lower one's step in the real executor). */
  readonly tier: number | undefined;
  /** Calls still running when this one started (one controller at a time ⇒ always 0). */
  readonly concurrent: number;
  settle(status?: 'succeeded' | 'failed'): void;
  fail(message: string): void;
}

/**
 * A small fake executor preemption port: it records calls, and each call stays pending until the test
 * settles or fails it (a slow executor), or settles at once in `auto` mode.
 */
export class FakePreemptor implements Preemptor {
  readonly calls: Call[] = [];
  private running = 0;
  maxConcurrent = 0;

  constructor(private readonly mode: 'auto' | 'manual' | 'throw' = 'manual') {}

  preempt(steps: readonly PlanStep[], options: PreemptOptions): Promise<readonly StepOutcome[]> {
    if (this.mode === 'throw') throw new Error('executor is gone');
    // Nothing to run: as the executor does, a hold only, answered at once (no flight).
    if (steps.length === 0) {
      this.calls.push({ steps, reason: options.reason, holdMs: options.holdMs, holds: options.holds, tier: options.tier, concurrent: 0, settle: () => undefined, fail: () => undefined });
      return Promise.resolve([]);
    }
    const concurrent = this.running;
    this.running += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
    return new Promise((resolve, reject) => {
      let settled = false;
      const done = () => {
        if (settled) return false;
        settled = true;
        this.running -= 1;
        return true;
      };
      const call: Call = {
        steps,
        reason: options.reason,
        holdMs: options.holdMs,
        holds: options.holds,
        tier: options.tier,
        concurrent,
        settle: (status = 'succeeded') => {
          if (!done()) return;
          resolve(
            steps.map((s) => ({
              planId: 'reflex',
              stepId: s.stepId,
              verb: s.type,
              status,
              attempts: 1,
              startedAt: 0,
              endedAt: 1,
              ...(status === 'failed' ? { failure: { code: 'effects_unmet', reason: 'still close', retryable: true } } : {}),
            })),
          );
        },
        fail: (message) => {
          if (!done()) return;
          reject(new Error(message));
        },
      };
      this.calls.push(call);
      if (this.mode === 'auto') call.settle();
    });
  }
}

/** Lets pending promise callbacks run (no timers involved). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}
