import { checkStep, describeError, type CapabilityRegistry, type PlanStep } from '@sinew/executor-contracts';
import { z } from 'zod';

/** The reply the model must give: a rationale in words and steps of registry verbs. */
export const LlmPlanReplySchema = z.strictObject({
  rationale: z.string().optional(),
  steps: z
    .array(z.strictObject({ verb: z.string().min(1), args: z.record(z.string(), z.unknown()) }))
    .min(1)
    .max(32),
});
export type LlmPlanReply = z.infer<typeof LlmPlanReplySchema>;

/** Replies nested deeper than this are refused before they are walked (a deep reply must not overflow the stack). */
const MAX_REPLY_DEPTH = 64;

/** What checking a reply gives: the plan steps, or the complaint for the corrective prompt. */
export type ReplyCheck = { readonly ok: true; readonly steps: PlanStep[] } | { readonly ok: false; readonly complaint: string };

/** Checks one model reply against the registry and the config's reply schema; the complaint says what was wrong in words the model can act on. */
export function validateReply<Body>(reply: string, registry: CapabilityRegistry<Body>, replySchema?: z.ZodType): ReplyCheck {
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
  if (problems.length) return { ok: false, complaint: problems.join('\n') };
  // The config's reply schema is the authority: the verbs it lists, its limits, its keys.
  const configured = replySchema?.safeParse(json);
  if (configured && !configured.success) return { ok: false, complaint: `Your reply does not match the reply schema of the config:\n${z.prettifyError(configured.error)}` };
  return { ok: true, steps };
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

