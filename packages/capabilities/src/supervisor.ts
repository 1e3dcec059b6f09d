import { type Clock, type Executor, type PlanOutcome, type RunOptions } from '@sinew/bt-runtime';
import { parseConfig, stepFailure, systemClock } from '@sinew/executor-contracts';
import type { Bot } from 'mineflayer';
import { z } from 'zod';
import { instrumentBot, type SinewBot } from './bot.js';

/**
 * Reconnect policy: backoff before connect attempt n is min(initialMs × factor^(n-1), maxMs); at most `maxReconnects`
 * failed connects in a row (a success resets the count), and at most `maxReconnects` resumes of one `run` after
 * its bot dropped (the count resets when the bot stayed connected `quietMs`).
 */
export const SupervisorPolicySchema = z.strictObject({
  initialMs: z.number().int().nonnegative().default(1000),
  factor: z.number().min(1).default(2),
  maxMs: z.number().int().positive().default(30_000),
  maxReconnects: z.number().int().nonnegative().default(5),
  quietMs: z.number().int().positive().default(60_000),
});
export type SupervisorPolicyInput = z.input<typeof SupervisorPolicySchema>;

/** Options of `superviseBot`. */
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

/** A bot kept connected: between plans (an idle drop is reconnected at once, with backoff) and while it runs one. */
export interface Supervisor {
  /** Runs the plan; when the bot drops mid-plan it reconnects with backoff and runs the same plan again from the journal. */
  run(plan: unknown, options?: RunOptions): Promise<PlanOutcome>;
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  /** Whether the bot is connected and its executor open (false while reconnecting or after giving up). */
  readonly connected: boolean;
  /** Closes the executor and ends the bot; no reconnect after this. */
  stop(): Promise<void>;
}

/**
 * Opt-in supervision. The supervisor watches the connection, not only plans: a bot that drops (kicked, server
 * gone) is reconnected at once with backoff, re-instrumented, and given a new executor on the same journal.
 * `run(plan)` always answers for that plan: after a drop it runs the same plan again (its finished steps answer
 * `duplicate` from the journal); an older unfinished plan in the journal is left for an explicit `resume()`.
 */
export async function superviseBot(options: SuperviseOptions): Promise<Supervisor> {
  const supervisor = new BotSupervisor(options, instrumentBot(await options.connect()));
  return supervisor;
}

class BotSupervisor implements Supervisor {
  readonly #options: SuperviseOptions;
  readonly #policy: z.output<typeof SupervisorPolicySchema>;
  readonly #clock: Clock;
  #bot: SinewBot;
  #executor: Executor<SinewBot>;
  #connected = true;
  #connectedAt: number;
  /** The reconnect in progress (the watch and a run share it: one connect at a time). */
  #reconnecting: Promise<boolean> | undefined;
  #stopped = false;

  constructor(options: SuperviseOptions, bot: SinewBot) {
    this.#options = options;
    this.#policy = parseConfig('supervise.policy', SupervisorPolicySchema, options.policy ?? {});
    this.#clock = options.clock ?? systemClock;
    this.#bot = bot;
    this.#executor = options.executor(bot);
    this.#connectedAt = this.#clock.now();
    this.#watch(bot);
  }

  get bot(): SinewBot {
    return this.#bot;
  }

  get executor(): Executor<SinewBot> {
    return this.#executor;
  }

  get connected(): boolean {
    return this.#connected;
  }

  async run(plan: unknown, runOptions: RunOptions = {}): Promise<PlanOutcome> {
    let resumes = 0;
    for (;;) {
      const since = this.#connectedAt;
      // A bot that dropped between plans, or a supervisor that gave up earlier: a fresh round of connects first.
      const outcome = (await this.#ensureConnected()) ? await this.#runOn(this.#executor, plan, runOptions) : this.#unreachable(plan);
      if (outcome.failure?.code !== 'body_disconnected' || this.#stopped) return outcome;
      if (this.#clock.now() - since >= this.#policy.quietMs) resumes = 0;
      if (resumes++ >= this.#policy.maxReconnects || !(await this.#ensureConnected())) return outcome;
    }
  }

  /** Runs the plan on `executor`; one replaced by a reconnect while the plan ended is closed once it is done. */
  async #runOn(executor: Executor<SinewBot>, plan: unknown, runOptions: RunOptions): Promise<PlanOutcome> {
    const outcome = await executor.run(plan, runOptions);
    if (executor !== this.#executor) await executor.close();
    return outcome;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#connected = false;
    await this.#executor.close();
    this.#bot.end('supervisor stopped');
  }

  /** Reconnects on the bot's own disconnect signal, so an idle drop is noticed when it happens. */
  #watch(bot: SinewBot): void {
    bot.sinew.onDisconnect(() => {
      if (bot !== this.#bot || this.#stopped) return;
      this.#connected = false;
      void this.#ensureConnected();
    });
  }

  #ensureConnected(): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(false);
    if (this.#connected) return Promise.resolve(true);
    this.#reconnecting ??= this.#reconnect().finally(() => (this.#reconnecting = undefined));
    return this.#reconnecting;
  }

  /** Up to `maxReconnects` connects with backoff; true once one worked. */
  async #reconnect(): Promise<boolean> {
    for (let attempt = 1; attempt <= this.#policy.maxReconnects && !this.#stopped; attempt += 1) {
      await sleep(this.#clock, Math.min(this.#policy.initialMs * this.#policy.factor ** (attempt - 1), this.#policy.maxMs));
      if (this.#stopped) return false;
      try {
        const bot = instrumentBot(await this.#options.connect());
        if (this.#stopped) return (bot.end('supervisor stopped'), false);
        const previous = this.#executor;
        this.#bot = bot;
        this.#executor = this.#options.executor(bot);
        // A plan still ending on the old executor closes it itself (closing it now would turn its ending into `aborted`).
        if (previous.state().plansRunning === 0) await previous.close();
        this.#connected = true;
        this.#connectedAt = this.#clock.now();
        this.#watch(bot);
        this.#options.onReconnect?.({ attempt, ok: true });
        return true;
      } catch (error) {
        this.#options.onReconnect?.({ attempt, ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return false;
  }

  /** The plan's answer when no connection could be made: refused before dispatch, `body_disconnected`. */
  #unreachable(plan: unknown): PlanOutcome {
    const now = this.#clock.now();
    return {
      planId: readId(plan, 'planId'),
      intentId: readId(plan, 'intentId'),
      status: 'failed',
      steps: [],
      failure: stepFailure('body_disconnected', `the bot could not reconnect after ${this.#policy.maxReconnects} attempts`),
      repairs: 0,
      startedAt: now,
      endedAt: now,
    };
  }
}

/** An id of the caller's plan, read defensively (a getter that throws is `unknown`, like a missing id). */
function readId(plan: unknown, key: 'planId' | 'intentId'): string {
  try {
    const value = (plan as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' && value !== '' ? value : 'unknown';
  } catch {
    return 'unknown';
  }
}

const sleep = (clock: Clock, ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
