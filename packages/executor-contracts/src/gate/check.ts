import { z } from 'zod';
import { ManifestSchema, type Manifest } from '../registry.js';
import { closestNames } from '../suggest.js';

/** Where a planner verb came from: a planner, a JSON list or a `type: '<verb>'` literal in source. */
export const VerbSourceSchema = z.object({
  /** What emitted the verb, e.g. `planners/htn.ts#htnPlanner`, `verbs.json` or `scan`. */
  source: z.string(),
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
});
export type VerbSource = z.infer<typeof VerbSourceSchema>;

/** One verb a planner may emit, with where it was found. */
export const PlannerVerbSchema = VerbSourceSchema.extend({ verb: z.string().min(1) });
export type PlannerVerb = z.infer<typeof PlannerVerbSchema>;

/** What a gate finding is about. */
export const VerbFindingKindSchema = z.enum(['unknown_verb', 'unverified_acceptance', 'alias_use', 'registry_only']);
export type VerbFindingKind = z.infer<typeof VerbFindingKindSchema>;

/** One thing the gate found; errors fail the gate, warnings are reported. */
export const VerbFindingSchema = z.object({
  kind: VerbFindingKindSchema,
  severity: z.enum(['error', 'warning']),
  verb: z.string(),
  message: z.string(),
  /** Every place the verb was found (planner verbs) — empty for registry-side findings. */
  locations: z.array(VerbSourceSchema),
  /** The canonical verb an alias resolves to (alias_use). */
  canonical: z.string().optional(),
  /** Capability version with a stub acceptance (unverified_acceptance). */
  version: z.string().optional(),
  /** Registered verbs close to an unknown one (unknown_verb). */
  suggestions: z.array(z.string()).optional(),
});
export type VerbFinding = z.infer<typeof VerbFindingSchema>;

/** The gate's verdict: `ok` is false when any finding is an error (FM-01 divergence or an unverified acceptance). */
export const VerbReportSchema = z.object({
  ok: z.boolean(),
  errors: z.number().int().nonnegative(),
  warnings: z.number().int().nonnegative(),
  registryVerbs: z.array(z.string()),
  plannerVerbs: z.array(z.string()),
  findings: z.array(VerbFindingSchema),
});
export type VerbReport = z.infer<typeof VerbReportSchema>;

/** What `checkVerbs` compares: the registry manifest and the verbs planners emit (plain strings or located). */
export interface VerbCheckInput {
  readonly manifest: Manifest;
  readonly plannerVerbs: readonly (string | PlannerVerb)[];
}

const KIND_ORDER: Record<VerbFindingKind, number> = { unknown_verb: 0, unverified_acceptance: 1, alias_use: 2, registry_only: 3 };

/**
 * The verb-divergence gate (FM-01 in CI): planner verbs without a capability and capabilities whose
 * acceptance is `unverified` are errors; registry-only verbs and deprecated aliases are warnings. Pure.
 *
 * @example
 * const report = checkVerbs({ manifest: registry.manifest(), plannerVerbs: planner.verbs() });
 * if (!report.ok) console.error(formatVerbReport(report, 'text'));
 */
export function checkVerbs(input: VerbCheckInput): VerbReport {
  const manifest = ManifestSchema.parse(input.manifest);
  const canonical = new Set(manifest.capabilities.map((c) => c.name));
  const aliasOf = new Map<string, string>();
  for (const cap of manifest.capabilities) for (const alias of cap.aliases) aliasOf.set(alias, cap.name);

  const used = new Map<string, VerbSource[]>();
  for (const entry of input.plannerVerbs) {
    const { verb, ...where } = typeof entry === 'string' ? { verb: entry, source: 'planner' } : PlannerVerbSchema.parse(entry);
    const list = used.get(verb) ?? [];
    list.push(where);
    used.set(verb, list);
  }

  const findings: VerbFinding[] = [];
  const covered = new Set<string>();
  for (const [verb, locations] of used) {
    if (canonical.has(verb)) {
      covered.add(verb);
      continue;
    }
    const target = aliasOf.get(verb);
    if (target !== undefined) {
      covered.add(target);
      findings.push({
        kind: 'alias_use',
        severity: 'warning',
        verb,
        canonical: target,
        message: `"${verb}" is a deprecated alias of "${target}"; emit "${target}" instead`,
        locations,
      });
      continue;
    }
    const suggestions = closestNames(verb, [...canonical, ...aliasOf.keys()]);
    findings.push({
      kind: 'unknown_verb',
      severity: 'error',
      verb,
      message:
        `planner verb "${verb}" has no capability (FM-01: the bot would silently do nothing)` +
        (suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''),
      locations,
      ...(suggestions.length ? { suggestions } : {}),
    });
  }
  for (const cap of manifest.capabilities) {
    for (const version of cap.versions) {
      if (version.acceptance !== 'unverified') continue;
      findings.push({
        kind: 'unverified_acceptance',
        severity: 'error',
        verb: cap.name,
        version: version.version,
        message: `${cap.name}@${version.version} has no real acceptance check (unverified: ${version.unverifiedReason ?? 'no reason given'})`,
        locations: [],
      });
    }
    if (!covered.has(cap.name)) {
      findings.push({
        kind: 'registry_only',
        severity: 'warning',
        verb: cap.name,
        message: `capability "${cap.name}" is registered but no planner emits it`,
        locations: [],
      });
    }
  }
  findings.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.verb.localeCompare(b.verb) || (a.version ?? '').localeCompare(b.version ?? ''));
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    ok: errors === 0,
    errors,
    warnings: findings.length - errors,
    registryVerbs: [...canonical].sort(),
    plannerVerbs: [...used.keys()].sort(),
    findings,
  };
}
