import { checkStep, describeError, describeValue, IntentSchema, settleWithin, systemClock, type CapabilityRegistry, type Clock, type Intent, type PlanStep, type ToolDefinition } from '@sinew/executor-contracts';
import { z } from 'zod';
import { planFailure, type Planner, type PlanResult, type PlannerWorld } from '../contract.js';
import { cognitionConfigHash, type CognitionConfig } from './config.js';
import { createCognitionGate, type GateDecision, type GateSignal } from './gate.js';
import { intentGateSignal } from './intent-signal.js';

/** Any chat model: one system prompt, one user prompt, a text reply. No vendor SDK required. */
export type CompleteFn = (prompt: { readonly system: string; readonly user: string }) => Promise<string>;

/** The reply the model must give: a rationale in words and steps of registry verbs. */
export const LlmPlanReplySchema = z.strictObject({
  rationale: z.string().optional(),
  steps: z
    .array(z.strictObject({ verb: z.string().min(1), args: z.record(z.string(), z.unknown()) }))
    .min(1)
    .max(32),
});
export type LlmPlanReply = z.infer<typeof LlmPlanReplySchema>;

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
  /** Renders the world for `{world}`; default `describeWorld` (health and food in words). */
  readonly describeWorld?: (world: World) => string;
  readonly name?: string;
  /** Told every LLM planner event. */
  readonly onEvent?: (event: LlmEvent) => void;
  /** Largest prompt (system + user, UTF-8 bytes) sent to `complete()`; a bigger one fails with `prompt_too_large` (default 64 KiB). */
  readonly maxPromptBytes?: number;
}

/** Default cap on one prompt (system + user) in UTF-8 bytes. */
export const DEFAULT_MAX_PROMPT_BYTES = 64 * 1024;
/** Replies nested deeper than this are refused before they are walked (a deep reply must not overflow the stack). */
const MAX_REPLY_DEPTH = 64;

/**
 * The LLM planner: renders the cognition config's prompts, validates the reply (JSON only, no
 * numeric state fields, the reply schema, every step through `checkStep`), sends each rejection back
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
      const checked = validateReply(reply.text, registry);
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

export type ReplyCheck = { readonly ok: true; readonly steps: PlanStep[] } | { readonly ok: false; readonly complaint: string };

/** Checks one model reply; the complaint says what was wrong in words the model can act on. */
export function validateReply<Body>(reply: string, registry: CapabilityRegistry<Body>): ReplyCheck {
  const text = reply.trim();
  const prose = `Your reply had text around the JSON (it began "${text.slice(0, 40)}"). Reply with exactly one JSON object: no prose, no code fences.`;
  if (!text.startsWith('{')) return { ok: false, complaint: prose };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // A JSON object followed by chatter is prose; anything else is broken JSON.
    const end = text.lastIndexOf('}');
    if (end > 0 && end < text.length - 1 && parses(text.slice(0, end + 1))) return { ok: false, complaint: prose };
    return { ok: false, complaint: `Your reply was not valid JSON (${describeError(error)}). Reply with exactly one JSON object.` };
  }
  if (depthExceeds(json, MAX_REPLY_DEPTH)) {
    return { ok: false, complaint: `Your reply was nested deeper than ${MAX_REPLY_DEPTH} levels. Reply with the flat shape of the schema.` };
  }
  const numeric = numericStateFields(json);
  if (numeric.length) {
    return {
      ok: false,
      complaint: `You set numeric state (${numeric.join(', ')}). You never set numbers outside a step's args: put your judgement in words in "rationale" and remove those fields.`,
    };
  }
  const shape = LlmPlanReplySchema.safeParse(json);
  if (!shape.success) return { ok: false, complaint: `Your reply does not match the schema:\n${z.prettifyError(shape.error)}` };
  const steps: PlanStep[] = [];
  const problems: string[] = [];
  shape.data.steps.forEach((step, index) => {
    const check = checkStep(registry, { stepId: `s${index + 1}`, type: step.verb, args: step.args });
    if (check.ok) steps.push({ stepId: `s${index + 1}`, type: check.capability.name, args: step.args });
    else if (check.failure.code === 'unknown_verb') {
      problems.push(`steps[${index}].verb "${step.verb}" is not a registered verb (${check.failure.reason}). Use only: ${registry.verbs().join(', ')}.`);
    } else problems.push(`steps[${index}] (${step.verb}) has invalid args: ${check.failure.reason}`);
  });
  return problems.length ? { ok: false, complaint: problems.join('\n') } : { ok: true, steps };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether a parsed JSON value nests deeper than `limit` (an explicit stack: no recursion on hostile input). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Paths of numbers anywhere except inside a step's `args` (seeds/001: the model never sets numbers). */
function numericStateFields(value: unknown, path = '', insideArgs = false): string[] {
  if (insideArgs) return [];
  if (typeof value === 'number') return [`${path || '(root)'} = ${value}`];
  if (Array.isArray(value)) return value.flatMap((item, index) => numericStateFields(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => {
      const isStepArgs = key === 'args' && /^steps\[\d+\]$/.test(path);
      return numericStateFields(item, path ? `${path}.${key}` : key, isStepArgs);
    });
  }
  return [];
}

/** The intent for the prompt: goal, source, traits and urgency in words. */
export function describeIntent(intent: Intent): string {
  const urgency = intent.urgency >= 0.8 ? 'urgent' : intent.urgency >= 0.4 ? 'moderately urgent' : 'not urgent';
  const context = Object.entries(intent.context)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'boolean')
    .map(([k, v]) => `${k}: ${String(v)}`);
  return [`goal: ${intent.goal}`, `from: ${intent.source}`, `urgency: ${urgency}`, ...(intent.traits.length ? [`traits: ${intent.traits.join(', ')}`] : []), ...context].join('\n');
}

/** The world for the prompt: health and food in words (numeric state stays in the substrate), items and blocks as facts. */
export function describeWorld(world: PlannerWorld): string {
  const health = world.health >= 16 ? 'healthy' : world.health >= 8 ? 'hurt' : 'badly hurt';
  const food = world.food >= 16 ? 'fed' : world.food >= 6 ? 'hungry' : 'starving';
  const items = Object.entries(world.inventory).sort(([a], [b]) => a.localeCompare(b)).map(([item, n]) => `${item} ×${n}`);
  const blocks = Object.entries(world.blocks).sort(([a], [b]) => a.localeCompare(b)).map(([at, block]) => `${block} at ${at}`);
  const p = world.position;
  return [
    `position: ${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`,
    `condition: ${health}, ${food}`,
    `holding: ${world.heldItem ?? 'nothing'}`,
    `inventory: ${items.length ? items.join(', ') : 'empty'}`,
    `blocks in view: ${blocks.length ? blocks.join('; ') : 'none noted'}`,
    ...(world.threats?.length ? [`threats: ${world.threats.map((t) => t.entity).join(', ')}`] : []),
  ].join('\n');
}

/** One verb for the prompt: its description, then what it needs and gives in the predicate wire form (args as `<placeholders>`). */
function describeTool(tool: ToolDefinition): string {
  const declared = [
    tool.preconds?.length ? `needs ${tool.preconds.join(', ')}` : '',
    tool.effects?.length ? `gives ${tool.effects.join(', ')}` : '',
  ].filter(Boolean);
  return `- ${tool.name}: ${tool.description}${declared.length ? ` (${declared.join('; ')})` : ''}`;
}
