import type { Intent, PlanStep, RepairRequest, RepairResponse } from '@sinew/executor-contracts';
import { planFailure, type Planner, type PlanResult, type PlannerWorld } from '../contract.js';
import { setBounded } from '../memory/bounded.js';
import { contextKey, type OutcomeMemory } from '../memory/outcomes.js';

// Method records for plans whose outcome never comes must not grow without bound.
const MAX_TRACKED_PLANS = 1000;

/** A task to achieve: compound (decomposed by methods) or primitive (a registry verb with an operator). */
export interface HtnTask {
  readonly task: string;
  readonly args?: Readonly<Record<string, unknown>>;
  /**
   * Primitive only: emit the step even when the simulation says its preconditions are unmet — the
   * executor's guard reports them as `precond_missing` and the repair hook subgoals them (FM-02).
   */
  readonly deferPreconds?: boolean;
}

/**
 * A method: data (name, the task it decomposes, subtask templates whose `$arg` strings are filled from
 * the task's args) plus optional code (`applicable`, or `expand` when the subtasks depend on the state).
 */
export interface HtnMethod<State = PlannerWorld> {
  /** Unique, e.g. `obtain.craft`; the key of its effectiveness memory. */
  readonly name: string;
  readonly task: string;
  readonly description: string;
  /** Whether this method applies in the state (default: always). */
  readonly applicable?: (state: State, args: Readonly<Record<string, unknown>>) => boolean;
  /** Subtasks as data; `"$item"` is replaced by the task's `item` arg. */
  readonly subtasks?: readonly HtnTask[];
  /** Subtasks as code; `undefined` means the method does not apply in this state. */
  readonly expand?: (state: State, args: Readonly<Record<string, unknown>>) => readonly HtnTask[] | undefined;
}

/** How a primitive task (a registry verb) changes the simulated state while planning. */
export interface HtnOperator<State = PlannerWorld> {
  readonly verb: string;
  /**
   * Whether the args are ones the capability accepts (e.g. counts ≥ 1); a step failing this is never
   * emitted, not even with `deferPreconds` — whatever order memory tries the methods in.
   */
  readonly valid?: (args: Readonly<Record<string, unknown>>) => boolean;
  /** Mutates the (cloned) planning state; return false when the step cannot run in this state. */
  readonly apply?: (state: State, args: Readonly<Record<string, unknown>>) => boolean | void;
  /** For `deferPreconds` tasks whose `apply` failed: the state as if the step had run. */
  readonly assume?: (state: State, args: Readonly<Record<string, unknown>>) => void;
  /**
   * Folds a later step of this verb into an earlier one (two gathers of oak_log → one of the sum);
   * undefined when they cannot be combined. The planner keeps a fold only if the plan still simulates.
   */
  readonly merge?: (earlier: Readonly<Record<string, unknown>>, later: Readonly<Record<string, unknown>>) => Record<string, unknown> | undefined;
  /** Effect predicates written onto the plan step. */
  readonly effects?: (args: Readonly<Record<string, unknown>>) => readonly string[];
}

/** Options of `createHtnPlanner`. */
export interface HtnPlannerOptions<State = PlannerWorld> {
  readonly name?: string;
  readonly methods: readonly HtnMethod<State>[];
  readonly operators: readonly HtnOperator<State>[];
  /** The root tasks for an intent, or undefined when this planner does not handle its goal. */
  readonly tasksFor: (intent: Intent) => readonly HtnTask[] | undefined;
  /** Method-effectiveness memory; methods with a better record in the intent's context are tried first. */
  readonly memory?: OutcomeMemory;
  /** Which intent.context keys make up the memory context (default: all scalar entries). */
  readonly contextKeys?: readonly string[];
  /** Decomposition depth bound (default 24) and expansion budget (default 5000). */
  readonly maxDepth?: number;
  readonly maxExpansions?: number;
  /** Precondition repair used by `repair()` (e.g. `minecraftRepair()` from @sinew/planners/minecraft). */
  readonly repairer?: (request: RepairRequest, world: State) => RepairResponse | undefined;
  /** Copies the state before a branch mutates it (default: structuredClone). */
  readonly clone?: (state: State) => State;
}

export interface HtnPlanner<State = PlannerWorld> extends Planner<State> {
  /** Synchronous: decomposition is pure computation over the simulated state. */
  plan(intent: Intent, world: State): PlanResult;
  /** Subgoal steps for a failed step's missing preconditions, or undefined. */
  repair?(request: RepairRequest, world: State): RepairResponse | undefined;
  /** Methods in the order they would be tried for `task` in `context`, best record first. */
  methodOrder(task: string, context: string): readonly string[];
  /** Records whether the plan succeeded; every method it used is credited, and the memory saved. */
  recordOutcome(planId: string, success: boolean): void;
}

type Draft = { verb: string; args: Record<string, unknown>; deferPreconds?: boolean };
type Expansion = { steps: Draft[]; methods: string[] };

/**
 * An HTN planner: total-order forward decomposition with backtracking over methods ordered by their
 * recorded effectiveness, down to registry verbs.
 *
 * @example
 * const htn = createHtnPlanner({ methods, operators, tasksFor: (i) => [{ task: 'obtain', args: { item: 'stick', count: 4 } }] });
 */
export function createHtnPlanner<State = PlannerWorld>(options: HtnPlannerOptions<State>): HtnPlanner<State> {
  const name = options.name ?? 'htn';
  const maxDepth = options.maxDepth ?? 24;
  const maxExpansions = options.maxExpansions ?? 5000;
  const clone = options.clone ?? ((state: State) => structuredClone(state));
  const operators = new Map(options.operators.map((op) => [op.verb, op]));
  const byTask = new Map<string, HtnMethod<State>[]>();
  for (const method of options.methods) {
    if (operators.has(method.task)) throw new Error(`HTN method ${method.name}: task ${method.task} is a primitive verb`);
    if (!method.subtasks === !method.expand) throw new Error(`HTN method ${method.name}: give exactly one of subtasks or expand`);
    byTask.set(method.task, [...(byTask.get(method.task) ?? []), method]);
  }
  const planMethods = new Map<string, { methods: string[]; context: string }>();
  let planCounter = 0;

  function ordered(task: string, context: string): HtnMethod<State>[] {
    const methods = byTask.get(task) ?? [];
    if (!options.memory) return methods;
    const memory = options.memory;
    // Stable sort: equal records keep the declared order.
    return methods
      .map((method, index) => ({ method, index, score: memory.score(method.name, context) }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .map(({ method }) => method);
  }

  function plan(intent: Intent, world: State): PlanResult {
    const roots = options.tasksFor(intent);
    if (!roots) return planFailure(name, 'unsupported_goal', `no HTN task for goal "${intent.goal}"`);
    const context = contextKey(intent.context, options.contextKeys);
    let expansions = 0;
    const tried: string[] = [];
    let deepest = false;

    const solve = (tasks: readonly (HtnTask & { depth: number })[], state: State): Expansion | undefined => {
      const [head, ...rest] = tasks;
      if (!head) return { steps: [], methods: [] };
      if (++expansions > maxExpansions) return undefined;
      const args = head.args ?? {};
      const operator = operators.get(head.task);
      if (operator) {
        if (operator.valid && !operator.valid(args)) return undefined;
        let next = clone(state);
        if (operator.apply?.(next, args) === false) {
          if (!head.deferPreconds) return undefined;
          next = clone(state);
          operator.assume?.(next, args);
        }
        const tail = solve(rest, next);
        const step: Draft = { verb: head.task, args: { ...args }, ...(head.deferPreconds ? { deferPreconds: true } : {}) };
        return tail && { steps: [step, ...tail.steps], methods: tail.methods };
      }
      if (head.depth >= maxDepth) {
        deepest = true;
        return undefined;
      }
      for (const method of ordered(head.task, context)) {
        if (method.applicable && !method.applicable(state, args)) continue;
        const subtasks = method.expand ? method.expand(state, args) : method.subtasks!.map((t) => fill(t, args));
        if (!subtasks) continue;
        tried.push(method.name);
        const result = solve([...subtasks.map((t) => ({ ...t, depth: head.depth + 1 })), ...rest], state);
        if (result) return { steps: result.steps, methods: [method.name, ...result.methods] };
      }
      return undefined;
    };

    const found = solve(roots.map((t) => ({ ...t, depth: 0 })), world);
    if (!found) {
      const code = expansions > maxExpansions || deepest ? 'depth_exceeded' : 'no_method';
      return planFailure(name, code, `no decomposition of ${roots.map((r) => r.task).join(', ')} for "${intent.goal}"`, [...new Set(tried)]);
    }
    planCounter += 1;
    const planId = `${name}-${intent.id}-${planCounter}`;
    const steps: PlanStep[] = consolidate(found.steps, world).map((step, index) => {
      const effects = operators.get(step.verb)?.effects?.(step.args);
      return { stepId: `s${index + 1}`, type: step.verb, args: step.args, ...(effects?.length ? { effects: [...effects] } : {}) };
    });
    setBounded(planMethods, planId, { methods: [...new Set(found.methods)], context }, MAX_TRACKED_PLANS);
    return { ok: true, planner: name, methods: [...new Set(found.methods)], plan: { planId, intentId: intent.id, planner: name, steps } };
  }

  /** Runs the steps through the operators from `world`: false when one is invalid or cannot run. */
  function simulates(steps: readonly Draft[], world: State): boolean {
    let state = clone(world);
    for (const step of steps) {
      const operator = operators.get(step.verb);
      if (!operator || (operator.valid && !operator.valid(step.args))) return false;
      let next = clone(state);
      if (operator.apply?.(next, step.args) === false) {
        if (!step.deferPreconds) return false;
        next = clone(state);
        operator.assume?.(next, step.args);
      }
      state = next;
    }
    return true;
  }

  /**
   * Folds each mergeable step into the first earlier one of its verb that accepts it (one trip for
   * every log the plan needs, whichever methods memory put first), keeping only folds that still simulate.
   */
  function consolidate(steps: readonly Draft[], world: State): Draft[] {
    let current = [...steps];
    for (let i = 1; i < current.length; i += 1) {
      const later = current[i]!;
      const merge = operators.get(later.verb)?.merge;
      if (!merge) continue;
      for (let j = 0; j < i; j += 1) {
        const earlier = current[j]!;
        const args = earlier.verb === later.verb ? merge(earlier.args, later.args) : undefined;
        if (!args) continue;
        const candidate = [...current.slice(0, j), { ...earlier, args }, ...current.slice(j + 1, i), ...current.slice(i + 1)];
        if (!simulates(candidate, world)) continue;
        current = candidate;
        i -= 1;
        break;
      }
    }
    return current;
  }

  return {
    name,
    verbs: () => [...operators.keys()].sort(),
    plan,
    ...(options.repairer ? { repair: options.repairer } : {}),
    methodOrder: (task, context) => ordered(task, context).map((m) => m.name),
    recordOutcome(planId, success) {
      const used = planMethods.get(planId);
      planMethods.delete(planId);
      if (!used || !options.memory) return;
      for (const method of used.methods) options.memory.record(method, used.context, success);
      options.memory.save();
    },
  };
}

function fill(template: HtnTask, args: Readonly<Record<string, unknown>>): HtnTask {
  // "$item" alone takes the arg as is (any type); inside a longer string it is interpolated.
  const substitute = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    const whole = /^\$([a-zA-Z_]\w*)$/.exec(value);
    if (whole && whole[1]! in args) return args[whole[1]!];
    return value.replace(/\$([a-zA-Z_]\w*)/g, (token, key: string) => (key in args ? String(args[key]) : token));
  };
  return {
    task: template.task,
    args: Object.fromEntries(Object.entries(template.args ?? {}).map(([k, v]) => [k, substitute(v)])),
    ...(template.deferPreconds ? { deferPreconds: true } : {}),
  };
}
