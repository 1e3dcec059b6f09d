// The planner input harness (issue 12, item 11): seeded hostile replies, complete() failures, hostile
// intents and worlds through the LLM planner, and garbage planner results through the router. Shared
// by `npm run fuzz` (fuzz/planners.fuzz.ts) and the planners' vitest run.
import { accepted, CapabilityRegistry, defineCapability, IntentSchema, mulberry32, PLANNER_ERROR_CODES, PlanSchema } from '@sinew/executor-contracts';
import {
  createLlmPlanner,
  createRouter,
  loadCognitionConfig,
  planFailure,
  planOutputSchema,
  type PlanResult,
  type Planner,
  type PlannerWorld,
} from '@sinew/planners';
import { z } from 'zod';

export interface PlannerFuzzOptions {
  readonly seed: number;
  readonly count: number;
  /** Stop starting new inputs after this long (real time). */
  readonly timeLimitMs: number;
  /** An input that has not settled after this long is a hang (real time; default 2,000 ms). */
  readonly hangMs?: number;
}

export interface PlannerFuzzStats {
  inputs: number;
  /** `llm:<code|ok>` / `router:<code|ok>` → count. */
  outcomes: Record<string, number>;
  throws: number;
  hangs: number;
  /** Results that are neither a valid plan nor a failure with a known code. */
  uncoded: number;
  unhandled: number;
  errors: string[];
}

const registry = new CapabilityRegistry()
  .register(defineCapability({ name: 'chat', version: '1.0.0', description: 'say something', inputSchema: z.object({ message: z.string().min(1) }), run: async () => {}, acceptance: () => accepted }))
  .register(
    defineCapability({
      name: 'craft_item',
      version: '1.0.0',
      description: 'craft an item',
      inputSchema: z.object({ item: z.string().min(1), count: z.number().int().positive().default(1) }),
      run: async () => {},
      acceptance: () => accepted,
    }),
  );

function cognitionConfig(retryBudget: number) {
  const loaded = loadCognitionConfig({
    system: 'You plan for a Minecraft bot. Reply with one JSON object.',
    userTemplate: 'Intent:\n{intent}\nWorld:\n{world}\nVerbs:\n{verbs}\nSchema:\n{schema}',
    correctiveTemplate: 'Rejected: {complaint}\nYou said: {previous}\nRequest: {request}',
    outputSchema: planOutputSchema(registry),
    retryBudget,
    completeTimeoutMs: 5,
    gate: { threshold: 0, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] },
  });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.config;
}
const CONFIGS = [cognitionConfig(0), cognitionConfig(1), cognitionConfig(2)];

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const int = (rng: Rng, max: number) => Math.floor(rng() * max);

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
const throwingGetter = (key: string): object => Object.defineProperty({}, key, { enumerable: true, get: () => { throw new Error(`${key} getter`); } });
function errorWithThrowingMessage(): Error {
  const error = new Error('x');
  Object.defineProperty(error, 'message', { get: () => { throw new Error('message getter'); } });
  return error;
}
const HOSTILE: readonly (() => unknown)[] = [revoked, () => throwingGetter('then'), errorWithThrowingMessage, () => Object.create(null), () => undefined, () => null, () => 42, () => 'text', () => new Error('plain'), () => 10n];

function randomText(rng: Rng, max: number): string {
  const alphabet = ['a', 'Z', '{', '}', '[', ']', '"', ':', ',', '$', "'", '`', '&', '\\', '\n', ' ', 'é', '😀', '\u0000', '{world}', '$&', "$'"];
  return Array.from({ length: int(rng, max) }, () => pick(rng, alphabet)).join('');
}

function nested(rng: Rng, depth: number): string {
  const [open, close] = rng() < 0.5 ? ['[', ']'] : ['{"a":', '}'];
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}

function randomStep(rng: Rng): unknown {
  const verb = pick(rng, ['chat', 'craft_item', 'craft_itme', 'fly', '', 'chat']);
  const args = pick(rng, [{ message: 'hi' }, { item: 'stick', count: 2 }, { item: 'stick', cout: 2 }, {}, { message: "$'" }, 'args', null, { item: 'x', count: -1 }]);
  return { verb, args };
}

/** One model reply: a valid plan, near misses, prose, broken or deep JSON, substitution bait, huge text. */
function randomReply(rng: Rng): string {
  switch (int(rng, 13)) {
    case 11:
    case 12:
      return JSON.stringify({ rationale: 'logs make planks', steps: [{ verb: 'craft_item', args: { item: 'oak_planks', count: 1 + int(rng, 8) } }, { verb: 'chat', args: { message: 'done' } }] });
    case 0:
    case 1:
      return JSON.stringify({ rationale: 'because', steps: Array.from({ length: 1 + int(rng, 3) }, () => randomStep(rng)) });
    case 2:
      return `Sure! ${JSON.stringify({ steps: [randomStep(rng)] })} hope that helps`;
    case 3:
      return JSON.stringify({ steps: [randomStep(rng)] }).slice(0, int(rng, 40));
    case 4:
      return `{"steps":[{"verb":"chat","args":{"message":"hi"}}],"x":${nested(rng, 1 + int(rng, 3_000))}}`;
    case 5:
      return JSON.stringify({ steps: [{ verb: 'chat', args: { message: 'hi' } }], confidence: rng() });
    case 6:
      return "$'$`$&".repeat(1 + int(rng, 40));
    case 7:
      return 'x'.repeat(int(rng, 100_000));
    case 8:
      return JSON.stringify({ steps: Array.from({ length: 33 + int(rng, 10) }, () => ({ verb: 'chat', args: { message: 'x' } })) });
    case 9:
      return JSON.stringify(pick(rng, [null, 1, [], 'steps', { steps: 'x' }, { steps: [] }]));
    default:
      return randomText(rng, 200);
  }
}

/** What one complete() call does: reply, resolve a non-string, reject or throw with anything, or hang. */
function randomCall(rng: Rng): () => Promise<string> {
  const roll = int(rng, 20);
  if (roll < 12) {
    const reply = randomReply(rng);
    return async () => reply;
  }
  const hostile = pick(rng, HOSTILE);
  if (roll < 15) return async () => hostile() as string;
  if (roll < 17) return () => Promise.reject(hostile());
  if (roll < 19) {
    return () => {
      throw hostile();
    };
  }
  return () => new Promise<string>(() => {});
}

function randomIntent(rng: Rng): unknown {
  const roll = int(rng, 10);
  if (roll < 7) {
    const goal = pick(rng, ['build a hut', "say $' twice", 'use {world} and $&', randomText(rng, 60) || 'g', 'y'.repeat(int(rng, 80_000)) || 'g']);
    return IntentSchema.parse({ id: `i${int(rng, 1e6)}`, source: 'user', goal, urgency: rng(), traits: pick(rng, [['ambiguous'], ['multi_step'], []]) });
  }
  return pick(rng, HOSTILE)();
}

function randomWorld(rng: Rng): PlannerWorld {
  const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: { oak_log: 2 }, blocks: {} };
  if (rng() < 0.1) return throwingGetter('inventory') as PlannerWorld;
  return world;
}

/** What a planner behind the router returns: a plan, or garbage of every kind. */
function randomPlannerResult(rng: Rng, name: string): () => unknown {
  const plan = { planId: `p${int(rng, 1e6)}`, intentId: 'i', steps: [{ stepId: 's1', type: 'chat', args: { message: 'hi' } }] };
  const valid = () => ({ ok: true, planner: name, plan });
  const options: (() => unknown)[] = [
    valid,
    valid,
    valid,
    valid,
    () => planFailure(name, 'no_method', 'none'),
    () => 'a plan',
    () => ({ steps: 'x' }),
    () => ({ ok: true, planner: name, plan: { ...plan, steps: 'x' } }),
    () => ({ ok: true, planner: name, plan: throwingGetter('steps') }),
    () => ({ ok: false, failure: { code: 'made_up', reason: 1 } }),
    () => Promise.resolve(pick(rng, HOSTILE)()),
    () => Promise.reject(pick(rng, HOSTILE)()),
    () => {
      throw pick(rng, HOSTILE)();
    },
    ...HOSTILE,
  ];
  return pick(rng, options);
}

function classify(result: unknown): string | undefined {
  const value = result as PlanResult;
  if (value?.ok === true) return PlanSchema.safeParse(value.plan).success ? 'ok' : undefined;
  if (value?.ok === false && (PLANNER_ERROR_CODES as readonly string[]).includes(value.failure?.code) && typeof value.failure.reason === 'string') return value.failure.code;
  return undefined;
}

function oneInput(rng: Rng): { target: string; run: () => PlanResult | Promise<PlanResult> } {
  if (rng() < 0.6) {
    const calls = Array.from({ length: 3 }, () => randomCall(rng));
    let n = 0;
    const planner = createLlmPlanner({ complete: () => (calls[Math.min(n++, 2)] as () => Promise<string>)(), config: pick(rng, CONFIGS), registry });
    const intent = randomIntent(rng);
    const world = randomWorld(rng);
    return { target: 'llm', run: () => planner.plan(intent as never, world) };
  }
  const planners: Planner[] = ['htn', 'llm', 'needs'].map((name) => {
    const result = randomPlannerResult(rng, name);
    return { name, verbs: () => ['chat'], plan: () => result() as PlanResult };
  });
  const router = createRouter({ planners, rules: [{ name: 'all', goal: /./, traits: ['ambiguous', 'multi_step'], route: ['htn', 'llm', 'needs'], weight: 1 }] });
  const intent = randomIntent(rng);
  return { target: 'router', run: () => router.plan(intent as never, randomWorld(rng)) };
}

/** Drives `count` seeded inputs (or as many as fit in the time limit) and counts what each ended as. */
export async function runPlannerFuzz(options: PlannerFuzzOptions): Promise<PlannerFuzzStats> {
  const rng = mulberry32(options.seed);
  const stats: PlannerFuzzStats = { inputs: 0, outcomes: {}, throws: 0, hangs: 0, uncoded: 0, unhandled: 0, errors: [] };
  const onUnhandled = (reason: unknown) => {
    stats.unhandled += 1;
    stats.errors.push(`unhandled rejection: ${String(reason instanceof Error ? reason.stack : typeof reason)}`);
  };
  process.on('unhandledRejection', onUnhandled);
  const started = Date.now();
  try {
    for (let i = 0; i < options.count && Date.now() - started < options.timeLimitMs; i += 1) {
      stats.inputs += 1;
      const { target, run } = oneInput(rng);
      const settled = await settleWithin(run, options.hangMs ?? 2_000);
      if (settled.kind === 'hang') stats.hangs += 1;
      else if (settled.kind === 'throw') {
        stats.throws += 1;
        stats.errors.push(`input ${i} (${target}) threw: ${settled.error instanceof Error ? settled.error.stack : typeof settled.error}`);
      } else {
        const code = classify(settled.value);
        if (code === undefined) stats.uncoded += 1;
        const key = `${target}:${code ?? 'UNCODED'}`;
        stats.outcomes[key] = (stats.outcomes[key] ?? 0) + 1;
      }
    }
    // Let late rejections of abandoned promises surface before counting them.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return stats;
}

async function settleWithin(run: () => PlanResult | Promise<PlanResult>, ms: number): Promise<{ kind: 'value'; value: unknown } | { kind: 'throw'; error: unknown } | { kind: 'hang' }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<{ kind: 'hang' }>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hang' }), ms);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(run)
        .then(
          (value) => ({ kind: 'value' as const, value }),
          (error: unknown) => ({ kind: 'throw' as const, error }),
        ),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
