import {
  loadCognitionConfig,
  planOutputSchema,
  type CognitionConfig,
  type CognitionConfigInput,
} from '../../src/index.js';
import { fakeRegistry } from './fake-minecraft.js';

/** The fake Minecraft registry the LLM tests plan against. */
export const registry = fakeRegistry();

/** A real cognition config, every field written out (seeds/002: no defaults, no placeholders). */
export const configInput = (overrides: Partial<CognitionConfigInput> = {}): CognitionConfigInput => ({
  system: 'You plan for a Minecraft bot. Reply with one JSON object matching the schema. Use only the listed verbs. Never set numeric state.',
  userTemplate: 'Intent:\n{intent}\n\nWorld:\n{world}\n\nVerbs:\n{verbs}\n\nSchema:\n{schema}',
  correctiveTemplate: 'Your previous reply was rejected: {complaint}\nReturn a corrected JSON object; keep everything else the same.',
  outputSchema: planOutputSchema(registry),
  retryBudget: 2,
  completeTimeoutMs: 30_000,
  gate: { threshold: 0.5, weights: { salience: 0.5, drivePressure: 0.3, arcHot: 0.1, relStakes: 0.3, fatigue: 0.2 }, cooldownMs: 10_000, trivialEvents: ['ambient_sound'] },
  ...overrides,
});
export const config = (overrides: Partial<CognitionConfigInput> = {}): CognitionConfig => {
  const loaded = loadCognitionConfig(configInput(overrides));
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.config;
};

/** A scripted model: returns the replies in order and records every prompt it was sent. */
export function scripted(replies: string[]) {
  const prompts: { system: string; user: string }[] = [];
  return {
    prompts,
    complete: async (prompt: { system: string; user: string }) => {
      prompts.push(prompt);
      const reply = replies[prompts.length - 1];
      if (reply === undefined) throw new Error('script exhausted');
      return reply;
    },
  };
}
