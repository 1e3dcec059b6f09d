// Regression search (uniform-cost A*, h = 0) from the goal's conditions back to the current world.
import { formatPredicate, type Capability, type Predicate } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';
import { producers, type ActionSchema, type GoapDomain, type GroundAction } from './actions.js';
import { stateKey, unmet as unmetConditions, type Conditions, type PredicateEvaluator } from './conditions.js';

export interface SearchLimits {
  /** Nodes expanded before the search gives up. */
  readonly maxNodes: number;
  /** Milliseconds on the injected clock before the search gives up. */
  readonly maxMs: number;
  /** Steps in one plan. */
  readonly maxSteps: number;
}

export interface SearchOptions {
  readonly schemas: readonly ActionSchema[];
  readonly holds: PredicateEvaluator;
  readonly domain?: GoapDomain;
  readonly cost: (capability: Capability, args: Record<string, unknown>) => number;
  readonly now: () => number;
  readonly limits: SearchLimits;
}

/** What the search found: the steps in execution order, or why not, with its size either way. */
export type SearchResult =
  | { readonly ok: true; readonly steps: readonly GroundAction[]; readonly cost: number; readonly nodes: number; readonly ms: number }
  | { readonly ok: false; readonly bound: 'nodes' | 'time' | 'steps' | undefined; readonly unproducible: readonly string[]; readonly details: readonly string[]; readonly nodes: number; readonly ms: number };

interface Node {
  readonly conditions: Conditions;
  /** Execution order: a step chosen later in the regression runs earlier. */
  readonly steps: readonly GroundAction[];
  readonly cost: number;
  readonly seq: number;
}

/** A binary heap on (cost, insertion order): the same inputs pop in the same order. */
class Frontier {
  readonly #heap: Node[] = [];
  get size(): number {
    return this.#heap.length;
  }
  push(node: Node): void {
    const heap = this.#heap;
    heap.push(node);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }
  pop(): Node | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || !last) return top;
    heap[0] = last;
    for (let i = 0; ; ) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let best = i;
      if (l < heap.length && before(heap[l]!, heap[best]!)) best = l;
      if (r < heap.length && before(heap[r]!, heap[best]!)) best = r;
      if (best === i) break;
      [heap[i], heap[best]] = [heap[best]!, heap[i]!];
      i = best;
    }
    return top;
  }
}

const before = (a: Node, b: Node) => a.cost < b.cost || (a.cost === b.cost && a.seq < b.seq);

/** The cheapest step sequence from `world` to `goal`'s conditions, bounded in nodes, time and plan length. */
export function search(goal: Conditions, world: PlannerWorld, given: SearchOptions): SearchResult {
  // The world does not change during a search: each predicate is evaluated on it once (a terrain snapshot has ~1,700 blocks).
  const options = { ...given, holds: evaluatedOnce(given.holds) };
  const started = options.now();
  const elapsed = () => options.now() - started;
  const frontier = new Frontier();
  const closed = new Set<string>();
  const unproducible = new Set<string>();
  const details: string[] = [];
  const levels = new Map<string, number>();
  let seq = 0;
  let nodes = 0;
  // A plan cut at maxSteps: when nothing else is found, the bound (not the declarations) is why.
  let cut = false;
  frontier.push({ conditions: goal, steps: [], cost: 0, seq: seq++ });
  while (frontier.size > 0) {
    if (nodes >= options.limits.maxNodes) return { ok: false, bound: 'nodes', unproducible: [...unproducible], details, nodes, ms: elapsed() };
    if (elapsed() > options.limits.maxMs) return { ok: false, bound: 'time', unproducible: [...unproducible], details, nodes, ms: elapsed() };
    const node = frontier.pop()!;
    const key = stateKey(node.conditions, world, options.holds);
    if (closed.has(key)) continue;
    closed.add(key);
    nodes += 1;
    const unmet = deepest(unmetConditions(node.conditions, world, options.holds), (p) => level(p, world, options, levels));
    if (!unmet) return { ok: true, steps: node.steps, cost: node.cost, nodes, ms: elapsed() };
    if (node.steps.length >= options.limits.maxSteps) {
      cut = true;
      continue;
    }
    const found = producers(options.schemas, unmet, world, options);
    const wire = formatPredicate(unmet);
    const note = (why: string) => {
      if (!unproducible.has(wire)) details.push(`${wire}: ${why}`);
      unproducible.add(wire);
    };
    if (found.actions.length === 0) note(`no capability's declared effects produce it${found.rejections.length ? ` (${found.rejections.join('; ')})` : ''}`);
    let pushed = 0;
    for (const action of found.actions) {
      const conditions = regress(node.conditions, action);
      // A step that needs what it makes leaves the state as it was: no progress.
      if (!conditions || stateKey(conditions, world, options.holds) === key) continue;
      frontier.push({ conditions, steps: [action, ...node.steps], cost: node.cost + action.cost, seq: seq++ });
      pushed += 1;
    }
    if (pushed === 0 && found.actions.length > 0) note(`every producer needs it first (${[...new Set(found.actions.map((a) => a.verb))].join(', ')})`);
  }
  return { ok: false, bound: cut ? 'steps' : undefined, unproducible: [...unproducible], details, nodes, ms: elapsed() };
}

function evaluatedOnce(holds: SearchOptions['holds']): SearchOptions['holds'] {
  const known = new Map<string, boolean>();
  return (predicate, world) => {
    const key = formatPredicate(predicate);
    if (!known.has(key)) known.set(key, holds(predicate, world));
    return known.get(key)!;
  };
}

/** The condition to regress first: the one furthest from raw materials, so a raw item's demand is whole when it is planned. */
function deepest(conditions: readonly Predicate[], levelOf: (p: Predicate) => number): Predicate | undefined {
  let best: Predicate | undefined;
  let bestLevel = -1;
  for (const condition of conditions) {
    const value = levelOf(condition);
    if (value > bestLevel) [best, bestLevel] = [condition, value];
  }
  return best;
}

/** How many production steps lie under a condition along its cheapest producers (memoised; a cycle counts 0). */
function level(condition: Predicate, world: PlannerWorld, options: SearchOptions, memo: Map<string, number>): number {
  const unit: Predicate = condition.kind === 'has_item' ? { ...condition, count: 1, mode: 'gain' } : condition;
  const key = formatPredicate(unit);
  const known = memo.get(key);
  if (known !== undefined) return known;
  memo.set(key, 0);
  const [cheapest] = producers(options.schemas, unit, world, options).actions;
  const value = cheapest ? 1 + Math.max(0, ...cheapest.preconds.map((p) => level(p, world, options, memo))) : 0;
  memo.set(key, value);
  return value;
}

/**
 * The conditions before `action`, given those after it: its effects discharge demands and predicates, its
 * item preconditions are consumed (a craft uses its ingredients), its other preconditions must hold.
 */
export function regress(after: Conditions, action: GroundAction): Conditions | undefined {
  const demand = new Map(after.demand);
  const open = new Map(after.open);
  let progress = false;
  for (const effect of action.effects) {
    if (effect.kind === 'has_item' && typeof effect.item === 'string') {
      const need = demand.get(effect.item) ?? 0;
      const left = effect.mode === 'gain' ? Math.max(0, need - effect.count) : effect.count >= need ? 0 : need;
      if (left < need) progress = true;
      demand.set(effect.item, left);
      continue;
    }
    for (const [key, predicate] of open) {
      if (key === formatPredicate(effect) || placesNear(effect, predicate)) {
        open.delete(key);
        progress = true;
      }
    }
  }
  if (!progress) return undefined;
  for (const precond of action.preconds) addCondition(demand, open, precond, action.keeps);
  return { demand, open };
}

/** A block placed where the body stands is a block near it. */
function placesNear(effect: Predicate, wanted: Predicate): boolean {
  return effect.kind === 'block_at' && wanted.kind === 'near_block' && effect.block === wanted.block;
}

function addCondition(demand: Map<string, number>, open: Map<string, Predicate>, precond: Predicate, keeps: readonly string[]): void {
  if (precond.kind !== 'has_item' || typeof precond.item !== 'string') {
    open.set(formatPredicate(precond), precond);
    return;
  }
  const need = demand.get(precond.item) ?? 0;
  demand.set(precond.item, keeps.includes(precond.item) ? Math.max(need, precond.count) : need + precond.count);
}
