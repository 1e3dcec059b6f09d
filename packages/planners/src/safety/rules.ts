import type { Intent, Plan, PlanStep } from '@sinew/executor-contracts';
import { z } from 'zod';

const name = z.string().min(1).max(64);
const words = z.array(z.string().min(1).max(64)).max(256);
const position = z.strictObject({ x: z.number().int(), y: z.number().int(), z: z.number().int() });

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

/** A box of block positions (inclusive) nobody may break or build in: a base, a farm, spawn. */
export const ProtectedRegionSchema = z.strictObject({ name, min: position, max: position });
export type ProtectedRegion = z.infer<typeof ProtectedRegionSchema>;

/**
 * The safety rules as data (seeds/004 "Intrusive Thought Processor" and "constitutional filters"):
 * forbidden verbs and targets, griefing (blocks other players placed, protected regions, attacking
 * players) and self-harm (lava, dropping the inventory). Unknown keys are refused.
 */
export const SafetyRulesSchema = z.strictObject({
  /** Verbs no suggestion or plan may use (matched against the goal's words and each step's type). */
  forbiddenVerbs: words,
  /** Targets no suggestion or plan may name (block, item or entity names; in the goal or a step's args). */
  forbiddenTargets: words,
  /** Goal patterns refused outright, each with its rule name and the reason a user is told. */
  goalPatterns: z.array(z.strictObject({ rule: name, pattern: z.string().min(1).max(256).refine(compiles, 'must be a valid regular expression'), reason: z.string().min(1) })).max(256),
  /** Verbs that move the body: refused toward a hazard (self-harm). */
  moveVerbs: words,
  /** Blocks a move must never head for (`lava`, `fire`); escaping them stays allowed. */
  hazards: words,
  /** Verbs that break blocks: refused on a block another player placed or inside a protected region. */
  breakVerbs: words,
  /** Verbs that attack: refused when the target is a player (entity `player`, or a name in `players`). */
  attackVerbs: words,
  /** Names of players the bot knows (attacking them is griefing). */
  players: words,
  /** Block positions (`"x,y,z"`) and who placed them; breaking one another player placed is griefing. */
  placedBy: z.record(z.string().regex(/^-?\d+,-?\d+,-?\d+$/, 'a block key is "x,y,z"'), name),
  /** The bot's own name: blocks it placed are its own to break. */
  self: name.optional(),
  protectedRegions: z.array(ProtectedRegionSchema).max(256),
});
export type SafetyRules = z.infer<typeof SafetyRulesSchema>;
export type SafetyRulesInput = z.input<typeof SafetyRulesSchema>;

/** The rules every bot starts with; extend them with `extendSafetyRules`. */
export const DEFAULT_SAFETY_RULES: SafetyRules = SafetyRulesSchema.parse({
  forbiddenVerbs: ['grief', 'kill_player', 'drop_all', 'toss_inventory'],
  forbiddenTargets: ['tnt'],
  goalPatterns: [
    { rule: 'self_harm.lava', pattern: '\\b(walk|jump|go|swim|step|dive|run)\\b[^.]*\\b(in|into|to|toward|towards)\\b[^.]*\\blava\\b', reason: 'walking into lava kills the bot' },
    { rule: 'self_harm.drop_inventory', pattern: '\\b(drop|throw|toss|dump)\\b.*\\b(everything|all|inventory|items)\\b', reason: 'dropping the inventory loses everything the bot carries' },
    { rule: 'griefing.attack_player', pattern: '\\b(attack|kill|hit|punch|shoot)\\b.*\\bplayers?\\b', reason: 'attacking players is griefing' },
    { rule: 'griefing.others_blocks', pattern: "\\b(break|destroy|dig|mine|tear down)\\b.*\\b(\\w+'s|their|his|her|someone's|other players')\\b", reason: 'breaking blocks other players placed is griefing' },
  ],
  moveVerbs: ['navigate', 'goto', 'walk_to', 'pathfind'],
  hazards: ['lava', 'fire'],
  breakVerbs: ['dig_block', 'break_block', 'mine_block'],
  attackVerbs: ['attack', 'attack_entity', 'fight'],
  players: [],
  placedBy: {},
  protectedRegions: [],
});

/** The default rules plus a bot's own (lists are concatenated, `placedBy` merged); validated like any rules. */
export function extendSafetyRules(base: SafetyRules, extra: Partial<SafetyRulesInput>): SafetyRules {
  const merged = SafetyRulesSchema.partial().parse(extra);
  return SafetyRulesSchema.parse({
    ...base,
    ...Object.fromEntries(Object.entries(merged).map(([key, value]) => [key, concat(base[key as keyof SafetyRules], value)])),
  });
}

function concat(base: unknown, extra: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(extra)) return [...base, ...extra];
  if (typeof base === 'object' && base !== null && typeof extra === 'object' && extra !== null) return { ...base, ...extra };
  return extra ?? base;
}

/** A filter's answer: allowed, or refused naming the rule and the reason. */
export type SafetyVerdict = { readonly allowed: true } | { readonly allowed: false; readonly rule: string; readonly reason: string };

const ALLOWED: SafetyVerdict = { allowed: true };
const lower = (list: readonly string[]) => new Set(list.map((s) => s.toLowerCase()));
const wordsOf = (text: string) => text.toLowerCase().split(/[^a-z0-9_]+/).filter(Boolean);

/** Judges a suggestion's goal against the rules (seeds/004 Intrusive Thought Processor). */
export function judgeGoal(rules: SafetyRules, goal: string): SafetyVerdict {
  const goalWords = wordsOf(goal);
  const verb = goalWords.find((w) => lower(rules.forbiddenVerbs).has(w));
  if (verb) return { allowed: false, rule: 'forbidden_verb', reason: `"${verb}" is a forbidden verb` };
  const target = goalWords.find((w) => lower(rules.forbiddenTargets).has(w));
  for (const pattern of rules.goalPatterns) {
    if (new RegExp(pattern.pattern, 'i').test(goal)) return { allowed: false, rule: pattern.rule, reason: pattern.reason };
  }
  if (target) return { allowed: false, rule: 'forbidden_target', reason: `"${target}" is a forbidden target` };
  const attacked = rules.players.find((p) => goalWords.includes(p.toLowerCase()) && goalWords.some((w) => lower(rules.attackVerbs).has(w) || w === 'attack' || w === 'kill'));
  if (attacked) return { allowed: false, rule: 'griefing.attack_player', reason: `attacking player ${attacked} is griefing` };
  return ALLOWED;
}

/** The constitutional check of one step: forbidden verbs and targets, griefing, protected regions. */
export function judgeStep(rules: SafetyRules, step: PlanStep): SafetyVerdict {
  const type = step.type.toLowerCase();
  if (lower(rules.forbiddenVerbs).has(type)) return { allowed: false, rule: 'forbidden_verb', reason: `step ${step.stepId} uses forbidden verb "${step.type}"` };
  const values = argStrings(step.args);
  const target = values.find((v) => lower(rules.forbiddenTargets).has(v.toLowerCase()));
  if (target) return { allowed: false, rule: 'forbidden_target', reason: `step ${step.stepId} (${step.type}) names forbidden target "${target}"` };
  const hazard = lower(rules.moveVerbs).has(type) ? values.find((v) => lower(rules.hazards).has(v.toLowerCase())) : undefined;
  if (hazard) return { allowed: false, rule: 'self_harm.hazard', reason: `step ${step.stepId} (${step.type}) heads into ${hazard}` };
  if (lower(rules.attackVerbs).has(type)) {
    // `player` is the entity type every player has; a known username is one player.
    const player = values.find((v) => v.toLowerCase() === 'player' || lower(rules.players).has(v.toLowerCase()));
    if (player) return { allowed: false, rule: 'griefing.attack_player', reason: `step ${step.stepId} attacks player ${player}` };
  }
  if (lower(rules.breakVerbs).has(type)) return judgeBreak(rules, step);
  return ALLOWED;
}

function judgeBreak(rules: SafetyRules, step: PlanStep): SafetyVerdict {
  const at = positionOf(step.args);
  if (!at) return ALLOWED;
  const key = `${at.x},${at.y},${at.z}`;
  const owner = rules.placedBy[key];
  if (owner !== undefined && owner !== rules.self) return { allowed: false, rule: 'griefing.others_blocks', reason: `step ${step.stepId} breaks the block at ${key} that ${owner} placed` };
  const region = rules.protectedRegions.find((r) => inside(r, at));
  if (region) return { allowed: false, rule: 'griefing.protected_region', reason: `step ${step.stepId} breaks a block at ${key} inside protected region ${region.name}` };
  return ALLOWED;
}

/** Every step of a plan through `judgeStep`; the first refusal wins. */
export function judgePlan(rules: SafetyRules, plan: Pick<Plan, 'steps'>): SafetyVerdict {
  for (const step of plan.steps) {
    const verdict = judgeStep(rules, step);
    if (!verdict.allowed) return verdict;
  }
  return ALLOWED;
}

/**
 * The input filter: an external suggestion (`source: 'user'`) leaves with `safety` decided by the rules;
 * an intent already refused stays refused; system and planner intents pass unchanged.
 */
export function screenIntent(rules: SafetyRules, intent: Intent): Intent {
  if (!intent.safety.allowed || intent.source !== 'user') return intent;
  const verdict = judgeGoal(rules, intent.goal);
  return verdict.allowed ? intent : { ...intent, safety: { allowed: false, reason: `${verdict.rule}: ${verdict.reason}` } };
}

function argStrings(args: Record<string, unknown>): string[] {
  return Object.values(args).flatMap((v) => (typeof v === 'string' ? [v.replace(/^minecraft:/, '')] : []));
}

const point = z.object({ x: z.number().finite(), y: z.number().finite(), z: z.number().finite() });

/** The block a step targets (`position`, `at` or `pos` arg), floored to its block. */
function positionOf(args: Record<string, unknown>): { x: number; y: number; z: number } | undefined {
  const found = [args.position, args.at, args.pos].map((v) => point.safeParse(v)).find((r) => r.success)?.data;
  return found ? { x: Math.floor(found.x), y: Math.floor(found.y), z: Math.floor(found.z) } : undefined;
}

function inside(region: ProtectedRegion, at: { x: number; y: number; z: number }): boolean {
  const within = (v: number, a: number, b: number) => v >= Math.min(a, b) && v <= Math.max(a, b);
  return within(at.x, region.min.x, region.max.x) && within(at.y, region.min.y, region.max.y) && within(at.z, region.min.z, region.max.z);
}
