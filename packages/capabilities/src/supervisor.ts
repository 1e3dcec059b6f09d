import { systemClock, type Clock, type Executor, type PlanOutcome, type RunOptions } from '@sinew/bt-runtime';
import type { Bot } from 'mineflayer';
import { z } from 'zod';
import { instrumentBot, type SinewBot } from './bot.js';

/** Reconnect policy: backoff before reconnect n is min(initialMs × factor^(n-1), maxMs); at most `maxReconnects` per plan. */
export const SupervisorPolicySchema = z.strictObject({
  initialMs: z.number().int().nonnegative().default(1000),
  factor: z.number().min(1).default(2),
  maxMs: z.number().int().positive().default(30_000),
  maxReconnects: z.number().int().nonnegative().default(5),
});
export type SupervisorPolicyInput = z.input<typeof SupervisorPolicySchema>;

export interface SuperviseOptions {
  /** Connects a fresh bot (resolves once it spawned); called again after every disconnect. */
  readonly connect: () => Promise<Bot>;
  /** Builds the executor for an instrumented bot; pass the same `journal` every time, so a new executor resumes the plan. */
  readonly executor: (bot: SinewBot) => Executor<SinewBot>;
  readonly policy?: SupervisorPolicyInput;
  /** Backoff runs on this clock (ManualClock in tests). */
  readonly clock?: Clock;
  /** Told of every reconnect attempt, with its result. */
  readonly onReconnect?: (event: { readonly attempt: number; readonly ok: boolean; readonly error?: string }) => void;
}

/** A bot kept connected while it runs a plan. */
export interface Supervisor {
  /** Runs the plan; when the bot is disconnected mid-plan it reconnects with backoff and resumes the plan from the journal. */
  run(plan: unknown, options?: RunOptions): Promise<PlanOutcome>;
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  /** Closes the executor and ends the bot. */
  stop(): Promise<void>;
}

/**
 * Opt-in supervision: a plan that ends `body_disconnected` (kicked, connection lost) is resumed on a
 * reconnected, re-instrumented bot by a new executor reading the same journal (finished steps are not dispatched again).
 */
export async function superviseBot(options: SuperviseOptions): Promise<Supervisor> {
  const policy = SupervisorPolicySchema.parse(options.policy ?? {});
  const clock = options.clock ?? systemClock;
  let bot = instrumentBot(await options.connect());
  let executor = options.executor(bot);
  const reconnect = async (attempt: number): Promise<boolean> => {
    await executor.close();
    await sleep(clock, Math.min(policy.initialMs * policy.factor ** (attempt - 1), policy.maxMs));
    try {
      bot = instrumentBot(await options.connect());
      executor = options.executor(bot);
      options.onReconnect?.({ attempt, ok: true });
      return true;
    } catch (error) {
      options.onReconnect?.({ attempt, ok: false, error: error instanceof Error ? error.message : String(error) });
      return false;
    }
  };
  return {
    get bot() {
      return bot;
    },
    get executor() {
      return executor;
    },
    async run(plan, runOptions = {}) {
      let outcome = await executor.run(plan, runOptions);
      for (let attempt = 1; outcome.failure?.code === 'body_disconnected' && attempt <= policy.maxReconnects; attempt += 1) {
        if (!(await reconnect(attempt))) continue;
        const { intent: _intent, ...rest } = runOptions;
        outcome = (await executor.resume(rest)) ?? (await executor.run(plan, runOptions));
      }
      return outcome;
    },
    async stop() {
      await executor.close();
      bot.end('supervisor stopped');
    },
  };
}

const sleep = (clock: Clock, ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
