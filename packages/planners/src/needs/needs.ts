import { ConfigError, fnv1a, IntentSchema, mulberry32, parseConfig, type Intent, type PlanStep } from '@sinew/executor-contracts';
import { SCAFFOLD_BLOCKS } from '@sinew/executor-contracts/minecraft';
import { z } from 'zod';
import { planFailure, PlannerWorldSchema, type Planner, type PlanResult, type PlannerWorld } from '../contract.js';
import { PICKAXES_BY_TIER } from '../minecraft/tools.js';
import { bestCraftableSword, sheltered, weaponHeld } from './body.js';
import { canonicalJson } from './canonical-json.js';

/** Homeostasis thresholds; a bad value is rejected when the planner is built. Defaults documented per field. */
export const NeedsThresholdsSchema = z.strictObject({
  /** health below this (of 20) is a need (default 10) */
  lowHealth: z.number().min(0).max(20).default(10),
  /** food below this (of 20) is hunger (default 14) */
  hungry: z.number().min(0).max(20).default(14),
  /** a threat closer than this many blocks is an emergency (default 10) */
  threatDistance: z.number().positive().default(10),
  /** night spans these ticks of the day (default 13000–23000) */
  nightStart: z.number().int().min(0).max(24000).default(13000),
  nightEnd: z.number().int().min(0).max(24000).default(23000),
  /** logs to gather when wood is the need (default 4) */
  woodWanted: z.number().int().positive().default(4),
  /** needs within this urgency of the top one are a tie broken by the seeded PRNG (default 0.05) */
  tieBand: z.number().min(0).max(1).default(0.05),
});
export type NeedsThresholds = z.output<typeof NeedsThresholdsSchema>;

/** The kinds of need. */
export type NeedKind = 'safety' | 'health' | 'food' | 'shelter' | 'tools' | 'weapon' | 'explore';

/** One need the needs planner weighs, with its urgency. */
export interface Need {
  readonly need: NeedKind;
  readonly urgency: number;
  readonly goal: string;
  readonly traits: readonly string[];
  readonly because: string;
}

/** The inner monologue: one event per decision (seeds/000). */
export interface ThoughtEvent {
  readonly type: 'thought';
  readonly intentId: string;
  readonly need: NeedKind;
  readonly urgency: number;
  readonly text: string;
  /** The other needs considered, most urgent first. */
  readonly considered: readonly { readonly need: NeedKind; readonly urgency: number }[];
}

/** Options of `createNeedsPlanner`. */
export interface NeedsPlannerOptions {
  readonly seed: number;
  readonly thresholds?: z.input<typeof NeedsThresholdsSchema>;
  /** Told each thought (the observable reasoning, seeds/000). */
  readonly onThought?: (thought: ThoughtEvent) => void;
}

export interface NeedsPlanner extends Planner<PlannerWorld> {
  /** A plan for the intent from the needs it names. */
  plan(intent: Intent, world: PlannerWorld): PlanResult;
  /** Homeostasis: every current need with its urgency, most urgent first. */
  assess(world: PlannerWorld): Need[];
  /**
   * Perception → the most urgent need as an Intent (ties broken by the seeded PRNG); emits a thought. Needs whose goal is
   * in `pursuing` (plans already running for them) are passed over while another need is left. Throws a
   * NeedsPerceptionError on a malformed perception.
   */
  formIntent(world: PlannerWorld, pursuing?: readonly string[]): Intent;
  /** Perception → intent → plan in one decision. */
  decide(world: PlannerWorld): { readonly intent: Intent; readonly result: PlanResult };
}

const FOODS = ['cooked_beef', 'cooked_porkchop', 'cooked_chicken', 'bread', 'baked_potato', 'cooked_mutton', 'apple', 'carrot', 'beef', 'porkchop', 'chicken', 'mutton'];
const PREY = ['cow', 'pig', 'sheep', 'chicken'];

/**
 * The deterministic needs planner (seeds/000): homeostasis (health, food, threats, time of day and shelter, weapon,
 * inventory) → an Intent with urgency → a plan, with no LLM. Its randomness is a PRNG seeded from
 * the seed and the perception, so the same seed and perception give the same intent and plan.
 * It is also the router's fast path for safety-critical intents.
 *
 * @example
 * const needs = createNeedsPlanner({ seed: 42, onThought: (t) => console.log(t.text) });
 * const { intent, result } = needs.decide(world);
 */
export function createNeedsPlanner(options: NeedsPlannerOptions): NeedsPlanner {
  if (!Number.isInteger(options.seed)) throw ConfigError.field('createNeedsPlanner', ['seed'], `seed must be an integer, got ${options.seed}`);
  const thresholds = parseConfig('createNeedsPlanner.thresholds', NeedsThresholdsSchema, options.thresholds ?? {});
  const name = 'needs';
  const rngFor = (world: PlannerWorld, salt: string) => mulberry32((options.seed ^ fnv1a(`${salt}|${canonicalJson(world)}`)) >>> 0);

  function assess(world: PlannerWorld): Need[] {
    const needs: Need[] = [];
    const t = thresholds;
    // Under a roof between walls (or up a pillar) a mob close by is no emergency, and fleeing would break out of the hut.
    const covered = sheltered(world);
    const threat = [...(world.threats ?? [])].sort((a, b) => a.distance - b.distance || a.entity.localeCompare(b.entity))[0];
    if (threat && threat.distance < t.threatDistance && !covered) {
      needs.push({
        need: 'safety',
        urgency: round(0.9 + 0.1 * (1 - threat.distance / t.threatDistance)),
        goal: `flee ${threat.entity}`,
        traits: ['safety_critical'],
        because: `a ${threat.entity} is ${threat.distance.toFixed(1)} blocks away`,
      });
    }
    const food = FOODS.find((f) => (world.inventory[f] ?? 0) > 0);
    // Hurt with nothing to eat, the plan is to hide: once hidden, there is nothing more to do for it.
    if (world.health < t.lowHealth && (food || !covered)) {
      needs.push({
        need: 'health',
        urgency: round(0.7 + 0.2 * (1 - world.health / t.lowHealth)),
        goal: food ? 'eat' : 'shelter',
        traits: ['safety_critical'],
        because: `health ${world.health}/20 is low${food ? ` and I carry ${food}` : ' and I have no food: hide'}`,
      });
    }
    if (world.food < t.hungry) {
      needs.push({
        need: 'food',
        urgency: round(0.3 + 0.5 * (1 - world.food / t.hungry)),
        goal: food ? 'eat' : 'hunt',
        traits: food ? [] : ['multi_step'],
        because: `food ${world.food}/20 is low${food ? `; I carry ${food}` : '; nothing to eat, hunt'}`,
      });
    }
    const time = world.time;
    const night = time !== undefined && (t.nightStart <= t.nightEnd ? time >= t.nightStart && time < t.nightEnd : time >= t.nightStart || time < t.nightEnd);
    if (night && !covered) {
      needs.push({ need: 'shelter', urgency: 0.6, goal: 'shelter', traits: ['building'], because: `it is night (tick ${time}) and nothing shelters me` });
    }
    if (!weaponHeld(world.inventory)) {
      const sword = bestCraftableSword(world.inventory);
      // Unarmed matters more at night (still below shelter), and by day it waits for the pickaxe (below the tools need's band).
      needs.push({ need: 'weapon', urgency: night ? 0.5 : 0.25, goal: `craft ${sword}`, traits: ['multi_step', 'crafting'], because: `no weapon; the best sword I can make is ${sword}` });
    }
    const logs = Object.entries(world.inventory).filter(([item]) => /_log$/.test(item)).reduce((sum, [, n]) => sum + n, 0);
    if (!PICKAXES_BY_TIER.some((p) => (world.inventory[p] ?? 0) > 0)) {
      needs.push({
        need: 'tools',
        urgency: logs >= thresholds.woodWanted ? 0.35 : 0.4,
        goal: logs >= thresholds.woodWanted ? 'craft wooden_pickaxe' : 'need wood',
        traits: ['multi_step', 'crafting'],
        because: logs ? `no pickaxe; ${logs} logs in hand` : 'no pickaxe and no wood',
      });
    }
    needs.push({ need: 'explore', urgency: 0.1, goal: 'explore', traits: [], because: 'nothing pressing: look around' });
    return needs.sort((a, b) => b.urgency - a.urgency || a.need.localeCompare(b.need));
  }

  function formIntent(input: PlannerWorld, pursuing: readonly string[] = []): Intent {
    const world = perceive(input);
    const all = assess(world);
    const open = all.filter((need) => !pursuing.includes(need.goal));
    const needs = open.length ? open : all;
    const top = needs[0]!;
    const tied = needs.filter((n) => top.urgency - n.urgency <= thresholds.tieBand);
    const rng = rngFor(world, 'intent');
    const chosen = tied.length > 1 ? tied[Math.floor(rng() * tied.length)]! : top;
    const intentId = `needs-${(fnv1a(`${options.seed}|${canonicalJson(world)}|${chosen.goal}`) >>> 0).toString(16)}`;
    const intent = IntentSchema.parse({
      id: intentId,
      source: 'system',
      goal: chosen.goal,
      urgency: chosen.urgency,
      traits: [...chosen.traits],
      context: { need: chosen.need, ...(world.time !== undefined ? { time: dayPart(world.time) } : {}) },
    });
    options.onThought?.({
      type: 'thought',
      intentId,
      need: chosen.need,
      urgency: chosen.urgency,
      text: `${chosen.because} → ${chosen.goal}${tied.length > 1 ? ` (chose among ${tied.map((n) => n.need).join(', ')} by seeded coin)` : ''}`,
      considered: all.map((n) => ({ need: n.need, urgency: n.urgency })),
    });
    return intent;
  }

  // A fresh planId per plan: the executor's idempotency key is planId:stepId, so re-planning the same snapshot must not collide.
  let planCounter = 0;

  function plan(intent: Intent, input: PlannerWorld): PlanResult {
    const parsedWorld = PlannerWorldSchema.safeParse(input);
    if (!parsedWorld.success) return planFailure(name, 'invalid_world', z.prettifyError(parsedWorld.error));
    const world = parsedWorld.data;
    const rng = rngFor(world, `plan|${intent.goal}`);
    const [verb, target] = intent.goal.trim().split(/\s+/);
    const steps: Omit<PlanStep, 'stepId'>[] = [];
    switch (verb) {
      case 'flee':
        steps.push({ type: 'flee', args: { entity: target ?? nearestThreat(world) ?? 'zombie', distance: Math.ceil(thresholds.threatDistance * 1.5) } });
        break;
      case 'eat': {
        const food = FOODS.find((f) => (world.inventory[f] ?? 0) > 0);
        if (!food) return planFailure(name, 'no_method', 'eat: no food in the inventory');
        steps.push({ type: 'consume_food', args: { item: food } });
        break;
      }
      case 'hunt': {
        const prey = PREY[Math.floor(rng() * PREY.length)]!;
        steps.push({ type: 'attack_entity', args: { entity: prey } }, { type: 'collect_drops', args: { radius: 8 } });
        break;
      }
      case 'shelter': {
        const block = SCAFFOLD_BLOCKS.find((b) => (world.inventory[b] ?? 0) >= 3);
        if (!block) return planFailure(name, 'no_method', 'shelter: fewer than 3 blocks to pillar with (the HTN can build one)');
        steps.push({ type: 'pillar_up', args: { height: 3, item: block } });
        break;
      }
      case 'explore': {
        const angle = rng() * 2 * Math.PI;
        const distance = 8 + Math.floor(rng() * 17);
        const p = world.position;
        steps.push({ type: 'navigate', args: { position: { x: Math.round(p.x + Math.cos(angle) * distance), y: Math.round(p.y), z: Math.round(p.z + Math.sin(angle) * distance) }, range: 2 } });
        break;
      }
      default:
        if (intent.goal === 'acquire wood' || intent.goal === 'need wood') {
          steps.push({ type: 'gather', args: { block: 'log', count: thresholds.woodWanted } });
          break;
        }
        return planFailure(name, 'unsupported_goal', `the needs planner has no fast plan for "${intent.goal}"`);
    }
    planCounter += 1;
    return {
      ok: true,
      planner: name,
      plan: { planId: `${name}-${intent.id}-${planCounter}`, intentId: intent.id, planner: name, steps: steps.map((s, i) => ({ ...s, stepId: `s${i + 1}` })) },
    };
  }

  return {
    name,
    verbs: () => ['attack_entity', 'collect_drops', 'consume_food', 'flee', 'gather', 'navigate', 'pillar_up'],
    plan,
    assess: (world) => assess(perceive(world)),
    formIntent,
    decide(world) {
      const intent = formIntent(world);
      return { intent, result: plan(intent, world) };
    },
  };
}

/** A perception that is not a valid PlannerWorld (which field, what was expected) — the needs planner cannot decide on it. */
export class NeedsPerceptionError extends Error {
  override readonly name = 'NeedsPerceptionError';
  readonly code = 'invalid_world' as const;
}

function perceive(input: PlannerWorld): PlannerWorld {
  const parsed = PlannerWorldSchema.safeParse(input);
  if (!parsed.success) throw new NeedsPerceptionError(`invalid perception:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function nearestThreat(world: PlannerWorld): string | undefined {
  return [...(world.threats ?? [])].sort((a, b) => a.distance - b.distance)[0]?.entity;
}

function dayPart(time: number): string {
  const t = ((time % 24000) + 24000) % 24000;
  return t < 1000 ? 'dawn' : t < 12000 ? 'day' : t < 13000 ? 'dusk' : t < 23000 ? 'night' : 'dawn';
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
