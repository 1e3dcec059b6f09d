import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { summarizeIssues, type CapabilityRegistry, type ToolDefinition, type ZodIssueSummary } from '@sinew/executor-contracts';
import { z } from 'zod';
import { canonicalJson } from '../needs/canonical-json.js';

/** Tokens the user template must contain; `{schema}` is optional. */
export const USER_TEMPLATE_TOKENS = ['{intent}', '{world}', '{verbs}'] as const;
/** Token the corrective template must contain; `{previous}` and `{request}` are optional. */
export const CORRECTIVE_TEMPLATE_TOKEN = '{complaint}';

const unit = z.number().min(0);

/** The seeds/001 gate: when the LLM is worth calling at all. */
export const CognitionGateConfigSchema = z.strictObject({
  /** Minimum meaningfulness M. */
  threshold: z.number(),
  /** M = salience·s + drivePressure·d + arcHot·a + relStakes·r − fatigue·(1 − energy). */
  weights: z.strictObject({ salience: unit, drivePressure: unit, arcHot: unit, relStakes: unit, fatigue: unit }),
  cooldownMs: z.number().int().nonnegative(),
  /** Event types that never warrant thought. */
  trivialEvents: z.array(z.string().min(1)),
});

/**
 * The LLM planner's cognition as data (seeds/002): prompts, output JSON Schema, corrective template,
 * retry budget, completion timeout and gate. Every field is required — there are no defaults — and the templates are
 * checked for their tokens when the config is loaded, not when a prompt is built.
 */
export const CognitionConfigSchema = z
  .strictObject({
    system: z.string().min(1),
    userTemplate: z.string().min(1),
    correctiveTemplate: z.string().min(1),
    /** JSON Schema of the reply; generate it from the registry with `planOutputSchema`. */
    outputSchema: z
      .record(z.string(), z.unknown())
      .refine((s) => s.type === 'object', 'must be a JSON Schema with type "object"')
      .refine(convertible, 'must be a JSON Schema zod can read (z.fromJSONSchema)'),
    /** Corrective retries after the first attempt: the model gets 1 + retryBudget tries. */
    retryBudget: z.number().int().min(0).max(10),
    /** How long one `complete()` call may take before the attempt fails with `llm_unavailable` (ms). */
    completeTimeoutMs: z.number().int().positive().max(600_000),
    gate: CognitionGateConfigSchema,
  })
  .superRefine((config, ctx) => {
    for (const token of USER_TEMPLATE_TOKENS) {
      if (!config.userTemplate.includes(token)) ctx.addIssue({ code: 'custom', path: ['userTemplate'], message: `must contain ${token}` });
    }
    if (!config.correctiveTemplate.includes(CORRECTIVE_TEMPLATE_TOKEN)) {
      ctx.addIssue({ code: 'custom', path: ['correctiveTemplate'], message: `must contain ${CORRECTIVE_TEMPLATE_TOKEN}` });
    }
  })
  .brand<'CognitionConfig'>();

function convertible(schema: Record<string, unknown>): boolean {
  try {
    z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    return true;
  } catch {
    return false;
  }
}

/** The config's reply schema as a zod schema: the model's reply is validated against it. */
export function replySchemaOf(config: CognitionConfig): z.ZodType {
  return z.fromJSONSchema(config.outputSchema as Parameters<typeof z.fromJSONSchema>[0]);
}

/** A validated cognition config; only `loadCognitionConfig` makes one. */
export type CognitionConfig = z.output<typeof CognitionConfigSchema>;
export type CognitionConfigInput = z.input<typeof CognitionConfigSchema>;
export type CognitionGateConfig = z.output<typeof CognitionGateConfigSchema>;

/** Why a cognition config could not be loaded: which file or field, and why. */
export interface ConfigError {
  readonly code: 'invalid_config' | 'config_unreadable';
  readonly message: string;
  readonly issues: readonly ZodIssueSummary[];
}

/** What loading a cognition config gives: the config, or the error. */
export type ConfigLoad<Config = CognitionConfig> = { readonly ok: true; readonly config: Config } | { readonly ok: false; readonly error: ConfigError };

/** Validates a cognition config (parsed JSON or an object literal); each bad field is named. */
export function loadCognitionConfig(input: unknown): ConfigLoad {
  const parsed = CognitionConfigSchema.safeParse(input);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, error: { code: 'invalid_config', message: z.prettifyError(parsed.error), issues: summarizeIssues(parsed.error.issues) } };
}

/** The config's identity (seeds/002): `sha256:` of its canonical JSON — key order does not change it, any field does. */
export function cognitionConfigHash(config: CognitionConfig): string {
  return `sha256:${createHash('sha256').update(canonicalJson(config)).digest('hex')}`;
}

/** Reads and validates a cognition config JSON file. */
export function loadCognitionConfigFile(path: string): ConfigLoad {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ok: false, error: { code: 'config_unreadable', message: `${path}: ${(error as Error).message}`, issues: [] } };
  }
  return loadCognitionConfig(json);
}

/**
 * The JSON Schema of a plan reply, generated from the registry's tool definitions: `{ rationale?,
 * steps: [{ verb, args }] }` where each step is one of the registered verbs with its input schema.
 */
export function planOutputSchema(source: Pick<CapabilityRegistry, 'toolDefinitions'> | readonly ToolDefinition[]): Record<string, unknown> {
  const tools = Array.isArray(source) ? (source as readonly ToolDefinition[]) : (source as Pick<CapabilityRegistry, 'toolDefinitions'>).toolDefinitions();
  const strip = ({ $schema: _drop, ...schema }: Record<string, unknown>) => schema;
  return {
    type: 'object',
    additionalProperties: false,
    required: ['steps'],
    properties: {
      rationale: { type: 'string', description: 'why these steps, in words (no numbers for state)' },
      steps: {
        type: 'array',
        minItems: 1,
        items: {
          oneOf: tools.map((tool) => ({
            type: 'object',
            additionalProperties: false,
            required: ['verb', 'args'],
            description: tool.description,
            properties: { verb: { const: tool.name }, args: strip(tool.inputSchema) },
          })),
        },
      },
    },
  };
}
