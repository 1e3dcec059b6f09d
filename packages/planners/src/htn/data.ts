import { summarizeIssues, type ZodIssueSummary } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { PlannerWorld } from '../contract.js';
import type { HtnMethod } from './htn.js';

const TaskDataSchema = z.strictObject({
  task: z.string().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
  deferPreconds: z.boolean().optional(),
});

/** A method written as pure data (JSON): no code, subtasks with `$arg` templates. */
export const HtnMethodDataSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, 'a dotted snake_case name like `wood.any_log`'),
  task: z.string().min(1),
  description: z.string().min(1),
  subtasks: z.array(TaskDataSchema),
});
export type HtnMethodData = z.infer<typeof HtnMethodDataSchema>;

/** What loading HTN methods from data gives: the methods, or a coded error. */
export type HtnMethodsLoad<State = PlannerWorld> =
  | { readonly ok: true; readonly methods: HtnMethod<State>[] }
  | { readonly ok: false; readonly error: { readonly code: 'invalid_methods'; readonly message: string; readonly issues: readonly ZodIssueSummary[] } };

/**
 * Validates methods written as data (e.g. a JSON file) — names unique, every field checked — so a
 * method library can live outside code; add them to `createHtnPlanner({ methods })` beside coded ones.
 */
export function loadHtnMethods<State = PlannerWorld>(input: unknown): HtnMethodsLoad<State> {
  const parsed = z
    .array(HtnMethodDataSchema)
    .superRefine((methods, ctx) => {
      const seen = new Set<string>();
      methods.forEach((method, index) => {
        if (seen.has(method.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate method name ${method.name}` });
        seen.add(method.name);
      });
    })
    .safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: { code: 'invalid_methods', message: z.prettifyError(parsed.error), issues: summarizeIssues(parsed.error.issues) } };
  }
  return { ok: true, methods: parsed.data };
}
