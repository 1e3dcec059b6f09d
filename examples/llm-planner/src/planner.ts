import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SinewBot } from '@sinew/capabilities';
import type { CapabilityRegistry } from '@sinew/executor-contracts';
import {
  createLlmPlanner,
  loadCognitionConfig,
  openAiCompatibleComplete,
  planOutputSchema,
  type ConfigLoad,
  type LlmEvent,
  type OpenAiCompatibleOptions,
  type Planner,
  type PlannerWorld,
} from '@sinew/planners';

/** The cognition config shipped with this example: prompts, corrective template, retry budget, gate. */
export const COGNITION_PATH = fileURLToPath(new URL('../cognition.json', import.meta.url));

/**
 * Reads a cognition config file and adds the reply's JSON Schema generated from `registry`, so the
 * verbs the model is shown and the verbs the executor knows cannot drift apart.
 */
export function loadCognition(registry: CapabilityRegistry<SinewBot>, path = COGNITION_PATH): ConfigLoad {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ok: false, error: { code: 'config_unreadable', message: `${path}: ${(error as Error).message}`, issues: [] } };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return loadCognitionConfig(json);
  return loadCognitionConfig({ ...json, outputSchema: planOutputSchema(registry) });
}

export interface ExamplePlannerOptions {
  /** The OpenAI-compatible endpoint (llama.cpp server, vLLM, Ollama's /v1, a hosted API). */
  readonly endpoint: Pick<OpenAiCompatibleOptions, 'baseUrl' | 'model' | 'apiKey' | 'timeoutMs'>;
  readonly registry: CapabilityRegistry<SinewBot>;
  readonly configPath?: string;
  readonly onEvent?: (event: LlmEvent) => void;
}

/** The LLM planner over an OpenAI-compatible endpoint with the shipped cognition; throws on a bad config. */
export function createExamplePlanner(options: ExamplePlannerOptions): Planner<PlannerWorld> {
  const loaded = loadCognition(options.registry, options.configPath);
  if (!loaded.ok) throw new Error(`cognition config ${options.configPath ?? COGNITION_PATH}: ${loaded.error.code}\n${loaded.error.message}`);
  const complete = openAiCompatibleComplete({ ...options.endpoint, temperature: 0, jsonMode: true });
  return createLlmPlanner({ complete, config: loaded.config, registry: options.registry, ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
}
