// Exactly-once across a worker's death between a step's act and its record. The journal cannot know whether the act
// happened (the record is what died), so the world is asked before the step is dispatched again: a verifier per verb
// reads what the world shows (the block is air: dug), compares it with evidence the dead worker read before its
// dispatch (its body's plank count, and which body it was), and answers done, absent or unknown. Done is recorded and
// answered `duplicate`; absent runs the step again (the act never happened); unknown refuses it, coded, not run.
import type { ClaimedStep } from '@sinew/bt-runtime';
import { describeError, describeValue, stepFailure, type StepOutcome } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { PreviousDispatch } from './journal.js';

/** What a verifier read from the world about a step an earlier owner claimed and never recorded. */
export type RecoveryVerdict =
  /** The effect is in place: the step is recorded succeeded from the world and not dispatched. */
  | { readonly state: 'done'; readonly reason: string }
  /** The effect is not in place, and cannot appear any more (the earlier owner is gone): the step runs. */
  | { readonly state: 'absent' }
  /** This worker cannot tell (the effect would be in another body): the step is refused `duplicate`, not run. */
  | { readonly state: 'unknown'; readonly reason: string };

/**
 * How the fleet checks the world before it runs a step again whose earlier owner died before recording it. A verb
 * without one is never run twice on a guess: such a step is refused (`duplicate`, failed) and the plan goes on to
 * its repair or its end. `evidence` (optional) is read from the body just before each claim of the verb and stored
 * with the claim in Redis; the next owner's `verify` gets it back as `previous.evidence` (JSON, unknown: check it).
 */
export interface StepRecovery<Args = unknown> {
  /** The canonical verb this recovery answers for. */
  readonly verb: string;
  /** Read from the body just before the act and stored with the claim (a craft: which body, its count of the item); JSON. */
  readonly evidence?: (args: Args) => unknown;
  /** What the world shows of an earlier owner's act: `done` (record it from the world), `absent` (run it), `unknown` (refuse). */
  readonly verify: (args: Args, previous: PreviousDispatch) => RecoveryVerdict | Promise<RecoveryVerdict>;
}

/**
 * A recovery for a capability, its args typed by its input schema (the executor parsed them with it).
 * @example recoverStep(digBlock, { verify: ({ position }) => (isAirAt(position) ? { state: 'done', reason: 'air' } : { state: 'absent' }) })
 */
export function recoverStep<Schema extends z.ZodType>(capability: { readonly name: string; readonly inputSchema: Schema }, hooks: Omit<StepRecovery<z.output<Schema>>, 'verb'>): StepRecovery {
  return { verb: capability.name, ...(hooks as Omit<StepRecovery, 'verb'>) };
}

/** A verb whose step may simply run again (navigation, looking, an act the world refuses twice on its own). */
export const rerunSafe = (verb: string): StepRecovery => ({ verb, verify: () => ({ state: 'absent' }) });

/** What the fleet does with a step an earlier owner left claimed and unrecorded. */
export type Recovered = { readonly state: 'done' | 'refused'; readonly outcome: StepOutcome } | { readonly state: 'absent' };

/** Asks the verb's recovery (none, or one that throws: unknown) and turns its verdict into an outcome. */
export async function recover(recovery: StepRecovery | undefined, step: ClaimedStep, previous: PreviousDispatch, now: number): Promise<Recovered> {
  const verdict = await verdictOf(recovery, step, previous);
  if (verdict.state === 'absent') return verdict;
  const base = { planId: step.planId, stepId: step.stepId, verb: step.verb, attempts: 0, startedAt: now, endedAt: now };
  if (verdict.state === 'done') return { state: 'done', outcome: { ...base, status: 'succeeded', observables: { recoveredFromWorld: verdict.reason, previousWorker: previous.worker } } };
  const reason = `step ${step.planId}:${step.stepId} (${step.verb}) was claimed by worker ${previous.worker}, which stopped before recording it, and may have taken effect: ${verdict.reason}; not dispatched again`;
  return { state: 'refused', outcome: { ...base, status: 'failed', failure: stepFailure('duplicate', reason) } };
}

async function verdictOf(recovery: StepRecovery | undefined, step: ClaimedStep, previous: PreviousDispatch): Promise<RecoveryVerdict> {
  if (!recovery) return { state: 'unknown', reason: `no recovery is declared for ${step.verb} (createFleetWorker({ recover }))` };
  try {
    const verdict: unknown = await recovery.verify(step.args, previous);
    const parsed = VERDICT.safeParse(verdict);
    return parsed.success ? parsed.data : { state: 'unknown', reason: `its recovery answered ${describeValue(verdict)}, not a verdict (${z.prettifyError(parsed.error).replace(/\n/g, '; ')})` };
  } catch (error) {
    return { state: 'unknown', reason: `its recovery threw: ${describeError(error)}` };
  }
}

/** A verdict, strictly: an unknown key (a misspelled `reason`) is no verdict, so the step is refused rather than guessed. */
const VERDICT: z.ZodType<RecoveryVerdict> = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('done'), reason: z.string() }),
  z.strictObject({ state: z.literal('absent') }),
  z.strictObject({ state: z.literal('unknown'), reason: z.string() }),
]);

/** The evidence a verb's recovery reads before a claim (undefined without one; a throw is evidence of nothing). */
export function evidenceFor(recovery: StepRecovery | undefined, step: ClaimedStep): unknown {
  try {
    return recovery?.evidence?.(step.args);
  } catch {
    return undefined;
  }
}
