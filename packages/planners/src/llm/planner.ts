import { describeError, describeValue, IntentSchema, settleWithin, systemClock, type CapabilityRegistry, type Clock, type Intent } from '@sinew/executor-contracts';
import { z } from 'zod';
import { planFailure, type Planner, type PlanResult, type PlannerWorld } from '../contract.js';
import { cognitionConfigHash, replySchemaOf, type CognitionConfig } from './config.js';
import { describeIntent, describeTool, describeWorld } from './describe.js';
import { createCognitionGate, type GateDecision, type GateSignal } from './gate.js';
import { intentGateSignal } from './intent-signal.js';
import { validateReply } from './reply.js';

/** Any chat model: one system prompt, one user prompt, a text reply. No vendor SDK required. */
export type CompleteFn = (prompt: { readonly system: string; readonly user: string }) => Promise<string>;

/** What the LLM planner reports: gate decisions, prompts, replies, validation retries. */
export type LlmEvent =
  | { readonly type: 'gate'; readonly intentId: string; readonly decision: GateDecision }
  | { readonly type: 'prompt'; readonly intentId: string; readonly attempt: number; readonly system: string; readonly user: string }
  | { readonly type: 'rejected'; readonly intentId: string; readonly attempt: number; readonly complaint: string }
  | { readonly type: 'accepted'; readonly intentId: string; readonly attempt: number; readonly steps: number };

/** Options of `createLlmPlanner`. */
export interface LlmPlannerOptions<World = PlannerWorld, Body = unknown> {
  readonly complete: CompleteFn;
  /** From `loadCognitionConfig` — validated, no defaults. */
  readonly config: CognitionConfig;
  /** Verbs and schemas the reply is checked against. */
  readonly registry: CapabilityRegistry<Body>;
  /** How the gate (built from `config.gate`) reads an intent; default `intentGateSignal`. */
  readonly signal?: (intent: Intent, world: World) => GateSignal;
  /** The clock of the gate's cooldown and of `completeTimeoutMs`; default the system clock. */
  readonly clock?: Clock;
  /** Renders the world for `{world}`; default `describeWorld` (positions and counts as words and buckets). */
  readonly describeWorld?: (world: World) => string;
  readonly name?: string;
  /** Told every LLM planner event. */
  readonly onEvent?: (event: LlmEvent) => void;
  /** Largest prompt (system + user, UTF-8 bytes) sent to `complete()`; a bigger one fails with `prompt_too_large` (default 64 KiB). */
  readonly maxPromptBytes?: number;
}

/** Default cap on one prompt (system + user) in UTF-8 bytes. */
export const DEFAULT_MAX_PROMPT_BYTES = 64 * 1024;

/**
 * The LLM planner: renders the cognition config's prompts, validates the reply (JSON only, no
 * numeric state fields, every step through `checkStep`, the config's reply schema), sends each rejection back
 * through the corrective template up to the retry budget, then fails with `llm_output_rejected`.
 */
export function createLlmPlanner<World = PlannerWorld, Body = unknown>(options: LlmPlannerOptions<World, Body>): Planner<World> {
  const { config, registry } = options;
  const name = options.name ?? 'llm';
  const maxPromptBytes = options.maxPromptBytes ?? DEFAULT_MAX_PROMPT_BYTES;
  if (!Number.isSafeInteger(maxPromptBytes) || maxPromptBytes < 1) throw new RangeError(`createLlmPlanner: maxPromptBytes must be a positive integer, received ${describeValue(maxPromptBytes)}`);
  const emit = (event: LlmEvent) => options.onEvent?.(event);
  const render = options.describeWorld ?? ((world: World) => describeWorld(world as unknown as PlannerWorld));
  let planCounter = 0;
  const clock = options.clock ?? systemClock;
  const gate = createCognitionGate(config.gate, clock);
  const readSignal = options.signal ?? ((intent: Intent, world: World) => intentGateSignal(intent, world, registry.verbs()));
  // Every plan names the config that made it (and so does each of its provenance records).
  const configHash = cognitionConfigHash(config);
  // The reply is checked against the config's own schema (seeds/002), not only against the registry.
  const replySchema = replySchemaOf(config);

  async function planOnce(intent: Intent, world: World): Promise<PlanResult> {
    // seeds/001: the model is asked only when the gate opens (M, triviality, cooldown, a real choice).
    const decision = gate.evaluate(readSignal(intent, world));
    emit({ type: 'gate', intentId: intent.id, decision });
    if (!decision.think) return planFailure(name, 'gate_closed', decision.reason);
    const tools = registry.toolDefinitions();
    const request = fillTemplate(config.userTemplate, {
      intent: describeIntent(intent),
      world: render(world),
      verbs: tools.map(describeTool).join('\n'),
      schema: JSON.stringify(config.outputSchema),
    });
    let user = request;
    const complaints: string[] = [];
    for (let attempt = 1; attempt <= 1 + config.retryBudget; attempt += 1) {
      const size = Buffer.byteLength(config.system) + Buffer.byteLength(user);
      if (size > maxPromptBytes) return planFailure(name, 'prompt_too_large', `prompt for attempt ${attempt} is ${size} bytes, over maxPromptBytes ${maxPromptBytes}`, complaints);
      emit({ type: 'prompt', intentId: intent.id, attempt, system: config.system, user });
      const reply = await ask(options.complete, { system: config.system, user }, config.completeTimeoutMs, attempt, clock);
      if (!reply.ok) return planFailure(name, 'llm_unavailable', reply.reason, complaints);
      const checked = validateReply(reply.text, registry, replySchema);
      if (checked.ok) {
        emit({ type: 'accepted', intentId: intent.id, attempt, steps: checked.steps.length });
        planCounter += 1;
        return { ok: true, planner: name, plan: { planId: `${name}-${intent.id}-${planCounter}`, intentId: intent.id, planner: name, configHash, steps: checked.steps } };
      }
      complaints.push(checked.complaint);
      emit({ type: 'rejected', intentId: intent.id, attempt, complaint: checked.complaint });
      user = fillTemplate(config.correctiveTemplate, { complaint: checked.complaint, previous: reply.text, request });
    }
    return planFailure(name, 'llm_output_rejected', `reply rejected ${complaints.length}× (budget ${config.retryBudget} corrective retries)`, complaints);
  }

  /** Never throws: a hostile intent, a throwing gate, renderer or event listener is a coded failure. */
  async function plan(input: Intent, world: World): Promise<PlanResult> {
    try {
      const intent = IntentSchema.safeParse(input);
      if (!intent.success) return planFailure(name, 'invalid_intent', `intent is not an Intent: ${z.prettifyError(intent.error)}`);
      return await planOnce(intent.data, world);
    } catch (error) {
      return planFailure(name, 'planner_error', `${name} planner failed: ${describeError(error)}`);
    }
  }

  // What the model is told it may emit: the verbs in the config's schema (the verb gate compares them to the registry).
  const schemaVerbs = verbsOfSchema(config.outputSchema);
  return { name, verbs: () => schemaVerbs ?? registry.verbs(), plan };
}

/** One `complete()` call; whatever it does (throw, reject, hang, resolve a non-string) is a value here. */
async function ask(complete: CompleteFn, prompt: { system: string; user: string }, timeoutMs: number, attempt: number, clock: Clock): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  let reply: unknown;
  try {
    reply = await settleWithin(clock, Promise.resolve(complete(prompt)), timeoutMs, () => Promise.reject(new Error(`no reply within completeTimeoutMs ${timeoutMs} ms`)));
  } catch (error) {
    return { ok: false, reason: `complete() failed on attempt ${attempt}: ${describeError(error)}` };
  }
  if (typeof reply !== 'string') return { ok: false, reason: `complete() resolved ${describeValue(reply).slice(0, 80)} (${typeof reply}) on attempt ${attempt}, not a string` };
  return { ok: true, text: reply };
}

/**
 * Fills `{token}`s in one pass with literal values: `$&`, `` $` `` or `$'` in a value are not
 * expanded, and a `{token}` inside a value is not filled again.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z]+)\}/g, (token: string, key: string) => (Object.hasOwn(values, key) ? (values[key] as string) : token));
}


/** The `const` verbs of a `planOutputSchema`-shaped schema, or undefined when it has none. */
function verbsOfSchema(schema: Record<string, unknown>): string[] | undefined {
  const steps = (schema.properties as { steps?: { items?: { oneOf?: unknown[] } } } | undefined)?.steps;
  const verbs = (steps?.items?.oneOf ?? [])
    .map((variant) => (variant as { properties?: { verb?: { const?: unknown } } }).properties?.verb?.const)
    .filter((verb): verb is string => typeof verb === 'string');
  return verbs.length ? [...new Set(verbs)].sort() : undefined;
}

