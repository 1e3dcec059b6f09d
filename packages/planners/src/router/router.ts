import { ConfigError, describeError, IntentSchema, MAX_TIMER_MS, parseConfig, settleWithin, systemClock, type Clock, type Intent, type RepairRequest, type RepairResponse } from '@sinew/executor-contracts';
import { z } from 'zod';
import { planFailure, readPlanResult, type Planner, type PlanResult, type PlannerWorld } from '../contract.js';
import { setBounded } from '../memory/bounded.js';
import { contextKey, type OutcomeMemory } from '../memory/outcomes.js';
import { hasSteps } from '../repair/hook.js';
import { GOAP_ROUTING_RULES } from './goap-routes.js';
import { refuseUnsafeIntent, refuseUnsafePlan } from '../safety/guard.js';
import { DEFAULT_SAFETY_RULES, screenIntent, type SafetyRules } from '../safety/rules.js';

// Plans whose outcome never comes (bot restarted, plan preempted) must not grow the map forever.
const MAX_TRACKED_PLANS = 1000;

/** One row of the routing table: intents matching it are routed to `route` (best first) with `weight`. */
export interface RouteRule {
  readonly name: string;
  /** Matches when the intent has any of these traits. */
  readonly traits?: readonly string[];
  /** Or when the goal matches. */
  readonly goal?: RegExp;
  /** Or when urgency is at least this. */
  readonly minUrgency?: number;
  /** Planner names, best first; each later one gets half the weight of the one before. */
  readonly route: readonly string[];
  readonly weight: number;
}

/**
 * The default routing table (seeds/004 "Routing Strategy"): time-critical safety → the fast path
 * (`needs`), homeostasis goals (eat, hunt, explore, flee) → `needs`, structured multi-step crafting/building → `htn`, ambiguous/social/natural-language → `llm`;
 * goals stated as predicates and navigation/puzzle/optimization → `goap`, trade-offs → `collaborative`.
 */
export const DEFAULT_ROUTING_RULES: readonly RouteRule[] = [
  { name: 'safety_critical', traits: ['safety_critical', 'emergency', 'threat'], route: ['needs'], weight: 10 },
  { name: 'urgent', minUrgency: 0.9, route: ['needs'], weight: 4 },
  // The needs planner's own homeostasis goals (what the cognition loop forms from body and belief events).
  { name: 'homeostasis', goal: /^(eat|hunt|explore|flee)\b/, route: ['needs', 'htn'], weight: 2 },
  { name: 'structured', traits: ['multi_step', 'crafting', 'building', 'gathering'], route: ['htn'], weight: 3 },
  { name: 'ambiguous_social', traits: ['ambiguous', 'social', 'natural_language', 'creative'], route: ['llm'], weight: 3 },
  { name: 'known_goal', goal: /^(craft|obtain|get|acquire|need|shelter|build|wooden|stone|iron|smelt)/i, route: ['htn', 'llm'], weight: 1 },
  ...GOAP_ROUTING_RULES,
];

/** A planner the router considered for an intent, with its score. */
export interface RouteCandidate {
  readonly planner: string;
  readonly rules: readonly string[];
  readonly ruleScore: number;
  /** Laplace-smoothed recorded success of this planner in the intent's context (0.5 = no evidence). */
  readonly prior: number;
  readonly successes: number;
  readonly failures: number;
  readonly score: number;
}

/** Every routing decision, with its reason — what the router chose, tried and fell back from. */
export type RouteEvent =
  | {
      readonly type: 'route';
      readonly intentId: string;
      readonly goal: string;
      readonly context: string;
      readonly chosen: string | undefined;
      readonly candidates: readonly RouteCandidate[];
      /** True when memory priors overrode the order the rules alone gave. */
      readonly memoryOverride: boolean;
      readonly reason: string;
    }
  | { readonly type: 'fallback'; readonly intentId: string; readonly from: string; readonly to: string | undefined; readonly reason: string }
  | { readonly type: 'planned'; readonly intentId: string; readonly planner: string; readonly planId: string; readonly reason: string }
  | { readonly type: 'outcome'; readonly planId: string; readonly planner: string; readonly success: boolean; readonly context: string; readonly reason: string };

/** Options of `createRouter`. */
export interface RouterOptions<World = PlannerWorld> {
  readonly planners: readonly Planner<World>[];
  readonly rules: readonly RouteRule[];
  /** Recorded success per (planner, context) — conditions the routes. */
  readonly memory?: OutcomeMemory;
  /** How far a perfect or hopeless record moves a score (± priorWeight; default 4). */
  readonly priorWeight?: number;
  /** Which intent.context keys form the memory context (default: all scalar entries). */
  readonly contextKeys?: readonly string[];
  /** Told every routing decision (route, planned, fallback, outcome). */
  readonly onEvent?: (event: RouteEvent) => void;
  /** How long one planner's `plan()` may take before the router falls back past it (default 30 000 ms). */
  readonly planTimeoutMs?: number;
  /** The clock `planTimeoutMs` runs on (default the system clock; a test injects a `ManualClock`). */
  readonly clock?: Clock;
  /** The input filter's and constitutional check's rules (default `DEFAULT_SAFETY_RULES`; extend with `extendSafetyRules`). */
  readonly safety?: SafetyRules;
}

/** `planTimeoutMs`: a whole number of milliseconds, at least 1. */
const PlanTimeoutSchema = z.object({ planTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS).default(30_000) });

export interface Router<World = PlannerWorld> extends Planner<World> {
  /** The ranked candidates for an intent, without planning (emits nothing). */
  route(intent: Intent): Extract<RouteEvent, { type: 'route' }>;
  /** The planner that made a plan, by planId (until its outcome is recorded; the last 1000 plans). */
  plannerFor(planId: string): Planner<World> | undefined;
  /** Records how a routed plan ended; updates the priors (and the memory file). */
  recordOutcome(planId: string, success: boolean): void;
  /** The input filter: an external suggestion with `safety` decided by the router's rules. */
  screen(intent: Intent): Intent;
}

/**
 * A cognitive task router: scores each planner by the routing rules the intent matches plus its
 * recorded success in the intent's context, plans with the best one and falls back down the list.
 *
 * @example
 * const router = createRouter({ planners: [htn, llm, needs], rules: DEFAULT_ROUTING_RULES, onEvent: console.log });
 */
export function createRouter<World = PlannerWorld>(options: RouterOptions<World>): Router<World> {
  const byName = new Map(options.planners.map((p) => [p.name, p]));
  if (byName.size !== options.planners.length) throw ConfigError.field('createRouter', ['planners'], 'planner names must be unique');
  for (const rule of options.rules) {
    if (!(rule.weight > 0)) throw ConfigError.field('createRouter', ['rules', rule.name, 'weight'], `rule ${rule.name} needs a positive weight`);
  }
  const { planTimeoutMs } = parseConfig('createRouter', PlanTimeoutSchema, { planTimeoutMs: options.planTimeoutMs });
  const clock = options.clock ?? systemClock;
  const priorWeight = options.priorWeight ?? 4;
  const safety = options.safety ?? DEFAULT_SAFETY_RULES;
  const emit = (event: RouteEvent) => options.onEvent?.(event);
  const plans = new Map<string, { planner: string; context: string }>();
  const subject = (planner: string) => `planner:${planner}`;

  function route(intent: Intent): Extract<RouteEvent, { type: 'route' }> {
    const context = contextKey(intent.context, options.contextKeys);
    const ruleScores = new Map<string, { score: number; rules: string[] }>();
    for (const rule of options.rules) {
      const matches =
        (rule.traits?.some((t) => intent.traits.includes(t)) ?? false) ||
        (rule.goal?.test(intent.goal) ?? false) ||
        (rule.minUrgency !== undefined && intent.urgency >= rule.minUrgency);
      if (!matches) continue;
      rule.route.forEach((name, index) => {
        if (!byName.has(name)) return;
        const entry = ruleScores.get(name) ?? { score: 0, rules: [] };
        entry.score += rule.weight / 2 ** index;
        entry.rules.push(rule.name);
        ruleScores.set(name, entry);
      });
    }
    const candidates: RouteCandidate[] = [...ruleScores].map(([planner, { score, rules }]) => {
      const stats = options.memory?.stats(subject(planner), context) ?? { successes: 0, failures: 0 };
      const prior = options.memory?.score(subject(planner), context) ?? 0.5;
      return { planner, rules, ruleScore: score, prior, ...stats, score: score + priorWeight * (prior - 0.5) * 2 };
    });
    const order = (a: RouteCandidate, b: RouteCandidate) =>
      b.score - a.score || options.planners.findIndex((p) => p.name === a.planner) - options.planners.findIndex((p) => p.name === b.planner);
    candidates.sort(order);
    const byRules = [...candidates].sort((a, b) => b.ruleScore - a.ruleScore || order(a, b));
    const chosen = candidates[0]?.planner;
    const memoryOverride = chosen !== undefined && byRules[0]?.planner !== chosen;
    const explain = (c: RouteCandidate) =>
      `${c.planner} ${c.score.toFixed(2)} (rules ${c.rules.join('+')} ${c.ruleScore.toFixed(2)}, prior ${c.prior.toFixed(2)} from ${c.successes}✓/${c.failures}✗)`;
    const reason = !chosen
      ? `no routing rule matched goal "${intent.goal}" traits [${intent.traits.join(', ')}] urgency ${intent.urgency}`
      : `${memoryOverride ? `memory override of ${byRules[0]!.planner}: ` : ''}${candidates.map(explain).join('; ')} in context ${context}`;
    return { type: 'route', intentId: intent.id, goal: intent.goal, context, chosen, candidates, memoryOverride, reason };
  }

  async function planWith(intent: Intent, world: World): Promise<PlanResult> {
    const decision = route(intent);
    emit(decision);
    const order = decision.candidates.map((c) => c.planner);
    const complaints: string[] = [];
    for (const [index, name] of order.entries()) {
      const result = await askPlanner(byName.get(name)!, intent, world, planTimeoutMs, clock);
      if (result.ok) {
        setBounded(plans, result.plan.planId, { planner: name, context: decision.context }, MAX_TRACKED_PLANS);
        emit({ type: 'planned', intentId: intent.id, planner: name, planId: result.plan.planId, reason: `${name} produced ${result.plan.steps.length} steps` });
        return result;
      }
      complaints.push(`${name}: ${result.failure.code}: ${result.failure.reason}`);
      emit({ type: 'fallback', intentId: intent.id, from: name, to: order[index + 1], reason: `${result.failure.code}: ${result.failure.reason}` });
    }
    return planFailure('router', 'no_route', decision.chosen ? `every routed planner failed for "${intent.goal}"` : decision.reason, complaints);
  }

  /** Never throws: a hostile intent, or a throwing route rule or event listener, is a coded failure. */
  async function plan(input: Intent, world: World): Promise<PlanResult> {
    try {
      const intent = IntentSchema.safeParse(input);
      if (!intent.success) return planFailure('router', 'invalid_intent', `intent is not an Intent: ${z.prettifyError(intent.error)}`);
      const screened = refuseUnsafeIntent(safety, intent.data);
      if (screened.refusal) return screened.refusal;
      const result = await planWith(screened.intent, world);
      const checked = refuseUnsafePlan(safety, result);
      if (result.ok && !checked.ok) plans.delete(result.plan.planId); // a refused plan never runs: no outcome will come
      return checked;
    } catch (error) {
      return planFailure('router', 'planner_error', `router failed: ${describeError(error)}`);
    }
  }

  return {
    name: 'router',
    verbs: () => [...new Set(options.planners.flatMap((p) => [...p.verbs()]))].sort(),
    plan,
    route,
    screen: (intent) => screenIntent(safety, intent),
    plannerFor: (planId) => {
      const entry = plans.get(planId);
      return entry ? byName.get(entry.planner) : undefined;
    },
    async repair(request: RepairRequest, world: World): Promise<RepairResponse | undefined> {
      // The plan's own planner first, then any other that can repair (recipe repair fits any plan).
      const own = plans.get(request.plan.planId)?.planner ?? request.plan.planner;
      const ordered = [...options.planners].sort((a, b) => Number(b.name === own) - Number(a.name === own));
      const errors: unknown[] = [];
      const refusals: string[] = [];
      for (const [index, planner] of ordered.entries()) {
        try {
          const response = await planner.repair?.(request, world);
          if (response && hasSteps(response)) return response;
          if (typeof response?.reason === 'string') refusals.push(`${planner.name}: ${response.reason}`);
        } catch (error) {
          // One planner's broken repair must not stop the others from trying; it is reported, not swallowed.
          errors.push(error);
          const message = describeError(error);
          emit({ type: 'fallback', intentId: request.plan.intentId, from: planner.name, to: ordered[index + 1]?.name, reason: `repair threw: ${message}` });
        }
      }
      // Nobody answered and something broke: surface it so the executor counts and logs a repair error.
      if (errors.length > 0) throw new AggregateError(errors, `router: no repair for ${request.step.stepId}; ${errors.length} planner repair(s) threw`);
      return refusals.length ? { steps: [], reason: refusals.join('; ') } : undefined;
    },
    recordOutcome(planId, success) {
      const entry = plans.get(planId);
      if (!entry) return;
      plans.delete(planId);
      options.memory?.record(subject(entry.planner), entry.context, success);
      options.memory?.save();
      byName.get(entry.planner)?.recordOutcome?.(planId, success);
      emit({
        type: 'outcome',
        planId,
        planner: entry.planner,
        success,
        context: entry.context,
        reason: `${entry.planner} ${success ? 'succeeded' : 'failed'} in ${entry.context}; prior now ${(options.memory?.score(subject(entry.planner), entry.context) ?? 0.5).toFixed(2)}`,
      });
    },
  };
}

/**
 * One planner's answer, validated: a throw or garbage (not a PlanResult, a plan that fails PlanSchema) is
 * `planner_error`, and so is a `plan()` that does not settle within `timeoutMs` (its late answer is dropped).
 */
async function askPlanner<World>(planner: Planner<World>, intent: Intent, world: World, timeoutMs: number, clock: Clock): Promise<PlanResult> {
  try {
    const answer = (async () => readPlanResult(planner.name, await planner.plan(intent, world)))();
    return await settleWithin(clock, answer, timeoutMs, () => planFailure(planner.name, 'planner_error', `plan() did not settle within ${timeoutMs} ms`));
  } catch (error) {
    // A planner that throws breaks its contract; it is a coded failure here, never a crash.
    return planFailure(planner.name, 'planner_error', `plan() threw: ${describeError(error)}`);
  }
}
