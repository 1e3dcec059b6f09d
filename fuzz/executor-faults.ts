// The executor fault harness (issue 12): seeded fault plans through createExecutor with a small fake
// body and a ManualClock. Shared by `npm run fuzz` (fuzz/executor.fuzz.ts) and the bt-runtime test.
import { createExecutor, instrumentMethods, type ActuatorSource, type Executor, type ExecutorRunContext, type PlanOutcome } from '@sinew/bt-runtime';
import { accepted, CapabilityRegistry, defineCapability, ERROR_CODES, ManualClock, mulberry32, type RepairHook } from '@sinew/executor-contracts';
import { z } from 'zod';

/** A small real body: moves and chats, and can drop its connection. */
class FuzzBody {
  x = 0;
  readonly #gone = new Set<(info: { readonly reason: string }) => void>();
  move(dx: number): void {
    this.x += dx;
  }
  chat(_message: string): void {}
  readonly sinew = {
    onDisconnect: (listener: (info: { readonly reason: string }) => void): (() => void) => {
      this.#gone.add(listener);
      return () => this.#gone.delete(listener);
    },
  };
  disconnect(reason: string): void {
    for (const listener of [...this.#gone]) listener({ reason });
  }
}
type Body = FuzzBody & ActuatorSource;

const RUNNERS = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'slow', 'slow', 'slow', 'throws', 'rejects', 'hangs', 'deaf', 'silent', 'stuck', 'twice', 'garbage', 'fails', 'ok_getter', 'revoked_result', 'revoked_rejection', 'message_getter', 'stale_actor'] as const;
const OBSERVES = ['plain', 'plain', 'plain', 'plain', 'plain', 'plain', 'plain', 'async', 'async', 'throws', 'hangs', 'then_getter'] as const;
const ACCEPTS = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'unmet', 'throws', 'null_unmet', 'ok_getter'] as const;
const GUARDS = ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'refuses', 'throws', 'ok_getter'] as const;
const REPAIRS = ['none', 'steps', 'throws', 'hangs', 'revoked', 'garbage'] as const;
const CODES = Object.keys(ERROR_CODES);

const ArgsSchema = z.object({ runner: z.enum(RUNNERS), observe: z.enum(OBSERVES), accept: z.enum(ACCEPTS), guard: z.enum(GUARDS), n: z.number().int() });
type Args = z.infer<typeof ArgsSchema>;

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
const throwing = (key: string): object => Object.defineProperty({}, key, { enumerable: true, get: () => { throw new Error(`${key} getter`); } });
const sleep = (ctx: ExecutorRunContext<Body>, ms: number) => new Promise<void>((resolve) => ctx.clock.setTimeout(resolve, ms));
const untilAborted = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

async function runner(ctx: ExecutorRunContext<Body>, args: Args): Promise<unknown> {
  switch (args.runner) {
    case 'ok':
      ctx.body.move(1);
      return undefined;
    case 'slow':
      for (let i = 0; i < args.n % 5 && !ctx.signal.aborted; i += 1) {
        ctx.body.move(1);
        await Promise.race([sleep(ctx, 100), untilAborted(ctx.signal)]);
      }
      return undefined;
    case 'throws':
      throw new Error('sync boom');
    case 'rejects':
      ctx.body.chat('x');
      await sleep(ctx, 10);
      throw new Error('async boom');
    case 'hangs':
      return new Promise(() => {});
    case 'deaf':
      ctx.body.move(1);
      return new Promise(() => {});
    case 'silent':
      return untilAborted(ctx.signal);
    case 'stuck':
      ctx.body.move(1);
      return untilAborted(ctx.signal);
    case 'twice':
      ctx.body.chat('x');
      return { then: (ok: (v: unknown) => void) => (ok({ ok: false, reason: 'first', retryable: true }), ok(undefined)) };
    case 'garbage':
      ctx.body.chat('x');
      return [42, { ok: 'yes' }, 'done', null][args.n % 4];
    case 'fails':
      ctx.body.chat('x');
      return { ok: false, code: CODES[args.n % CODES.length], reason: 'reported' };
    case 'ok_getter':
      ctx.body.chat('x');
      return throwing('ok');
    case 'revoked_result':
      ctx.body.chat('x');
      return revoked();
    case 'revoked_rejection':
      ctx.body.chat('x');
      throw revoked();
    case 'message_getter':
      throw Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error('message getter'); } });
    case 'stale_actor':
      // Ignores abort and keeps acting through its (by then stale) body view.
      for (;;) {
        ctx.body.chat('still here');
        await sleep(ctx, 50);
      }
  }
}

function observe(body: Body, args: Args): unknown {
  switch (args.observe) {
    case 'plain':
      return { x: body.x };
    case 'async':
      return Promise.resolve({ x: body.x });
    case 'throws':
      throw new Error('observe boom');
    case 'hangs':
      return args.n % 2 === 0 ? new Promise(() => {}) : { x: body.x };
    case 'then_getter':
      return throwing('then');
  }
}

function acceptance(args: Args): unknown {
  switch (args.accept) {
    case 'ok':
      return accepted;
    case 'unmet':
      return { ok: false, unmet: ['moved'] };
    case 'throws':
      throw new Error('acceptance boom');
    case 'null_unmet':
      return { ok: false, unmet: [Object.create(null)] };
    case 'ok_getter':
      return throwing('ok');
  }
}

function guard(args: Args): unknown {
  switch (args.guard) {
    case 'ok':
      return { ok: true };
    case 'refuses':
      return { ok: false, code: 'precond_missing', reason: 'no', missing: ['has_item:stick'] };
    case 'throws':
      throw new Error('guard boom');
    case 'ok_getter':
      return throwing('ok');
  }
}

const capability = (name: string, atomic: boolean) =>
  defineCapability<typeof ArgsSchema, Body, unknown>({
    name,
    version: '1.0.0',
    description: `fault capability ${name}`,
    inputSchema: ArgsSchema,
    atomic,
    guard: ({ body: _ }, args) => guard(args) as never,
    run: (ctx, args) => runner(ctx as ExecutorRunContext<Body>, args) as never,
    observe: ({ body }, args) => observe(body, args),
    acceptance: (_pre, _post, args) => acceptance(args) as never,
    expectedDurationMs: 200,
  });

const registry = new CapabilityRegistry<Body>().register(capability('fault', false)).register(capability('atomic_fault', true));

/** Figures of one harness run. */
export interface FuzzStats {
  plans: number;
  steps: number;
  outcomes: Record<string, number>;
  plansByStatus: Record<string, number>;
  hangs: number;
  uncoded: number;
  gaugesNotZero: number;
  unhandled: number;
  errors: string[];
}

export function emptyStats(): FuzzStats {
  return { plans: 0, steps: 0, outcomes: {}, plansByStatus: {}, hangs: 0, uncoded: 0, gaugesNotZero: 0, unhandled: 0, errors: [] };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function randomStep(rng: Rng, index: number, keys: readonly string[]) {
  const args: Args = { runner: pick(rng, RUNNERS), observe: pick(rng, OBSERVES), accept: pick(rng, ACCEPTS), guard: pick(rng, GUARDS), n: Math.floor(rng() * 1000) };
  return {
    stepId: `s${index}`,
    type: rng() < 0.2 ? 'atomic_fault' : rng() < 0.03 ? 'no_such_verb' : 'fault',
    args: rng() < 0.03 ? { ...args, n: 'not a number' } : args,
    ...(rng() < 0.3 ? { idempotencyKey: pick(rng, keys) } : {}),
    ...(rng() < 0.3 ? { priority: Math.floor(rng() * 3) } : {}),
  };
}

function repairHook(rng: Rng): RepairHook | undefined {
  const kind = pick(rng, REPAIRS);
  if (kind === 'none') return undefined;
  return {
    repair: () => {
      switch (kind) {
        case 'steps':
          return { steps: [randomStep(rng, 99, ['k'])], reason: 'fuzz' };
        case 'throws':
          throw new Error('repair boom');
        case 'hangs':
          return new Promise(() => {});
        case 'revoked':
          return revoked() as never;
        case 'garbage':
          return { steps: 'x' } as never;
      }
    },
  };
}

/** One case: an executor, 1–3 concurrent plans (at most `maxPlans`), and random preempt/cancel/close/disconnect on the way. */
export async function runCase(seed: number, stats: FuzzStats, maxPlans = 3): Promise<void> {
  const rng = mulberry32(seed);
  const clock = new ManualClock();
  const body: Body = instrumentMethods(new FuzzBody(), ['move', 'chat']);
  const repair = repairHook(rng);
  const executor: Executor<Body> = createExecutor({ registry, body, clock, policy: { maxLocalRetries: Math.floor(rng() * 3), abortGraceMs: 100, ttfaMs: 500, stuckMs: 700, backoff: { initialMs: 50 }, maxResumes: 2, repairTimeoutMs: 1000 }, ...(repair ? { repair } : {}) });
  const keys = ['k1', 'k2', 'k3'];
  const plans: Promise<PlanOutcome>[] = [];
  const settled = new Set<number>();
  // Drawn first, then capped: the same seed gives the same case whatever the cap.
  const planCount = Math.min(1 + Math.floor(rng() * 3), maxPlans);
  for (let p = 0; p < planCount; p += 1) {
    const steps = Array.from({ length: 1 + Math.floor(rng() * 6) }, (_, i) => randomStep(rng, i, keys));
    const controller = rng() < 0.15 ? new AbortController() : undefined;
    const budget = rng() < 0.1 ? { intent: { id: `i${p}`, source: 'system' as const, goal: 'fuzz', urgency: 0.5, timeBudgetMs: 200 + Math.floor(rng() * 2000) } } : {};
    const input = rng() < 0.02 ? revoked() : { planId: `p${p}`, intentId: `i${p}`, steps };
    const done = executor.run(input, { ...(controller ? { signal: controller.signal } : {}), ...budget });
    done.then(() => settled.add(p), () => settled.add(p));
    plans.push(done);
    if (controller) clock.setTimeout(() => controller.abort(), Math.floor(rng() * 1500));
  }
  const preempts: Promise<unknown>[] = [];
  if (rng() < 0.3) {
    clock.setTimeout(() => {
      const step = randomStep(rng, 50, keys);
      preempts.push(executor.preempt([step], { reason: 'fuzz' }));
    }, Math.floor(rng() * 1500));
  }
  if (rng() < 0.1) clock.setTimeout(() => void preempts.push(executor.close()), Math.floor(rng() * 3000));
  if (rng() < 0.08) clock.setTimeout(() => body.disconnect('fuzz'), Math.floor(rng() * 3000));
  // Every deadline is bounded: well past the longest chain of attempts, retries, backoff and repairs.
  for (let t = 0; t < 120 && settled.size < planCount; t += 1) await clock.advance(1000);
  await Promise.race([Promise.all(preempts), clock.advance(1000)]);
  for (let p = 0; p < planCount; p += 1) {
    if (!settled.has(p)) {
      stats.hangs += 1;
      stats.errors.push(`seed ${seed}: plan ${p} never settled`);
      continue;
    }
    record(await plans[p]!, stats, seed);
  }
  await executor.close();
  await clock.flush();
  const active = (await executor.metrics.activeSteps.get()).values[0]?.value ?? 0;
  if (active !== 0 || executor.state().waiting !== 0) {
    stats.gaugesNotZero += 1;
    stats.errors.push(`seed ${seed}: active=${active} waiting=${executor.state().waiting}`);
  }
}

function record(outcome: PlanOutcome, stats: FuzzStats, seed: number): void {
  stats.plans += 1;
  stats.plansByStatus[outcome.status] = (stats.plansByStatus[outcome.status] ?? 0) + 1;
  for (const step of outcome.steps) {
    stats.steps += 1;
    const code = step.status === 'succeeded' ? 'succeeded' : step.failure?.code;
    if (code === undefined || (code !== 'succeeded' && !(code in ERROR_CODES))) {
      stats.uncoded += 1;
      stats.errors.push(`seed ${seed}: step ${step.stepId} ended ${step.status} without a code`);
      continue;
    }
    stats.outcomes[code] = (stats.outcomes[code] ?? 0) + 1;
  }
}

/** Runs cases from `seed` until `plans` plans ran or `timeLimitMs` passed (whichever first). */
export async function runExecutorFaults(options: { seed: number; plans: number; timeLimitMs?: number }): Promise<FuzzStats> {
  const stats = emptyStats();
  const onUnhandled = (reason: unknown) => {
    stats.unhandled += 1;
    if (stats.errors.length < 50) stats.errors.push(`unhandled rejection: ${String((reason as Error)?.message ?? reason)}`);
  };
  process.on('unhandledRejection', onUnhandled);
  const stopAt = Date.now() + (options.timeLimitMs ?? Number.POSITIVE_INFINITY);
  try {
    // The last case runs only the plans still owed, so `--count N` is exactly N plans.
    for (let i = 0; stats.plans + stats.hangs < options.plans && Date.now() < stopAt; i += 1) await runCase(options.seed * 1_000_003 + i, stats, options.plans - stats.plans - stats.hangs);
    // Let late rejections surface before counting.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return stats;
}
