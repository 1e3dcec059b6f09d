import { createHash } from 'node:crypto';
import { describeError, IntentSchema, type Intent, type Plan } from '@sinew/executor-contracts';
import type { PlannerWorld } from '../contract.js';
import { createCognitionGate } from '../llm/gate.js';
import type { NeedsPlanner } from '../needs/needs.js';
import { canonicalJson } from '../needs/canonical-json.js';
import type { Router } from '../router/router.js';
import type { BodyEdge, CognitionLoopConfig } from './config.js';
import { splitRule, type CognitionEvent } from './events.js';
import { CognitionInputSchema, tickOf, type BeliefMessage, type CognitionInput, type CognitionInputParsed } from './inputs.js';
import { applyInput, initialLoopState, salienceOf, signalOf, stateDigest } from './signal.js';

/** What the loop needs of an executor (`@sinew/bt-runtime`'s `Executor` fits): run a plan for its intent, report how it ended. */
export interface CognitionExecutor {
  /** Runs the plan for its intent; resolves with how it ended. */
  run(plan: Plan, options: { readonly intent: Intent }): Promise<{ readonly status: string; readonly failure?: { readonly code: string; readonly reason: string } }>;
}

/** Options of `createCognition`. */
export interface CognitionOptions {
  /** Plans (HTN, needs, LLM behind it), screens suggestions, records outcomes into planner memory. */
  readonly router: Pick<Router, 'plan' | 'route' | 'screen' | 'recordOutcome'>;
  /** Forms the intent of a body or belief event and lists the open choices (the needs planner). */
  readonly needs: Pick<NeedsPlanner, 'assess' | 'formIntent'>;
  /** From `loadCognitionLoopConfig`: the signal functions' weights and the gate. */
  readonly config: CognitionLoopConfig;
  readonly executor: CognitionExecutor;
  /** The body's state for planning (position, inventory, health; threats from belief, never raw entities). */
  readonly observe: () => PlannerWorld | Promise<PlannerWorld>;
  /** The gate's cooldown and the energy window run on it. */
  readonly clock: {
    /** Milliseconds now. */
    now(): number;
  };
  /** A belief adapter: its stream messages are ingested as they come. */
  readonly belief?: {
    /** Subscribes to the adapter's stream messages; returns the unsubscribe. */
    on(event: 'message', listener: (message: BeliefMessage) => void): () => void;
  };
  /** A body signal source: each edge is ingested as it comes. */
  readonly signals?: (listener: (edge: { readonly tick: number; readonly edge: BodyEdge }) => void) => () => void;
  /** Told every decision event. */
  readonly onEvent?: (event: CognitionEvent) => void;
}

/** The running loop. */
export interface Cognition {
  /** One input through the loop (inputs are handled one at a time, in order); resolves with the events it caused. */
  ingest(input: CognitionInput): Promise<readonly CognitionEvent[]>;
  /**
   * A suggestion from outside (`POST /api/cognitive/signals`, a chat bridge), taken at the latest tick the loop has
   * seen: the input filter, the gate, then planning, like a chat line; resolves with the events it caused.
   */
  suggest(suggestion: SuggestionInput): Promise<readonly CognitionEvent[]>;
  /** Subscribes to the decision events; returns the unsubscribe. */
  on(listener: (event: CognitionEvent) => void): () => void;
  /** Resolves once no input is queued and no plan the loop started is still running (and its outcome is handled). */
  idle(): Promise<void>;
  /** Plans the loop started that have not ended. */
  plansInFlight(): number;
  /** Stops listening to `belief` and `signals`. */
  close(): void;
}

/** A suggestion as `suggest` takes it: the input's fields without its kind and tick. */
export type SuggestionInput = Omit<Extract<CognitionInput, { kind: 'suggestion' }>, 'kind' | 'tick'>;

type Say = (event: DistributiveOmit<CognitionEvent, 'seq' | 'tick' | 'inputHash'>) => void;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The cognition loop (seeds/001, 003, 000): each input becomes a seeds/001 signal by the config's
 * documented functions; the gate decides; only then the router plans and the executor runs; the outcome
 * returns as an input and into planner memory. Every decision is a `cognition.*` event with its tick and
 * input hash, so the same inputs (and seed) give the same decisions.
 *
 * @example
 * const loaded = loadCognitionLoopConfig(COGNITION_LOOP_EXAMPLE);
 * if (!loaded.ok) throw new Error(loaded.error.message);
 * const cognition = createCognition({ router, needs, config: loaded.config, executor, observe: () => observeWorld(bot), clock: systemClock });
 * cognition.on((event) => console.log(event.type, event.tick));
 */
export function createCognition(options: CognitionOptions): Cognition {
  const { config, router, needs, clock } = options;
  const gate = createCognitionGate(config.gate, clock);
  const state = initialLoopState();
  const listeners = new Set<(event: CognitionEvent) => void>(options.onEvent ? [options.onEvent] : []);
  const running = new Set<Promise<void>>();
  let queue: Promise<unknown> = Promise.resolve();
  let seq = 0;
  let lastTick = 0;
  let inFlight = 0;
  // The goals of the plans running now (goal → planId): a decision for one of them is not planned twice.
  const pursued = new Map<string, string>();
  // Decisions that found every plan slot taken, most urgent first: one is taken up when a plan ends (each already passed the gate).
  const deferred: Intent[] = [];
  // A body edge the gate turned away only for its cooldown: the body is still in that state, so it is judged again
  // with the first input after the cooldown (a newer edge of the same subject replaces it).
  let held: BodyInput | undefined;
  // A player's request turned away only by the cooldown: kept too (never dropped), judged again the same way.
  let heldAsk: AskInput | undefined;
  let lastOpen = -Infinity;

  const publish = (event: CognitionEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not stop cognition; the other listeners still hear the event.
      }
    }
  };
  const stamper = (tick: number, inputHash: string, events: CognitionEvent[]): Say => (event) => {
    const full = { ...event, seq: ++seq, tick, inputHash } as CognitionEvent;
    events.push(full);
    publish(full);
  };

  async function handle(raw: CognitionInput): Promise<CognitionEvent[]> {
    const events: CognitionEvent[] = [];
    const parsed = CognitionInputSchema.safeParse(raw);
    if (!parsed.success) {
      stamper(lastTick, hashOf({ raw: safeJson(raw) }), events)({ type: 'cognition.refused', stage: 'invalid_input', reason: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') });
      return events;
    }
    const input = parsed.data;
    const tick = tickOf(input);
    lastTick = Math.max(lastTick, tick);
    let world: PlannerWorld;
    try {
      world = await options.observe();
    } catch (error) {
      stamper(tick, hashOf({ input }), events)({ type: 'cognition.refused', stage: 'observe_failed', reason: `observe() failed: ${describeError(error)}` });
      return events;
    }
    const say = stamper(tick, hashOf({ input, world, state: stateDigest(state), deferred: deferred.map((intent) => intent.id), held, heldAsk }), events);
    try {
      const cooled = clock.now() - lastOpen >= config.gate.cooldownMs;
      const retry = cooled ? held : undefined;
      if (retry) await think(retry, world, say);
      const ask = cooled ? heldAsk : undefined;
      if (ask) {
        heldAsk = undefined; // judged now; held again only if the gate's cooldown alone turns it away again
        await think(ask, world, say);
      }
      await think(input, world, say);
    } catch (error) {
      // A throwing collaborator (needs planner on a malformed world, planner memory) ends this input, never the loop.
      say({ type: 'cognition.refused', stage: 'loop_error', reason: describeError(error) });
    }
    return events;
  }

  async function think(input: CognitionInputParsed, world: PlannerWorld, say: Say): Promise<void> {
    if (input.kind === 'body' && held && subjectOf(held.edge) === subjectOf(input.edge)) held = undefined;
    const heard = salienceOf(config, input, state);
    applyInput(state, input);
    if (input.kind === 'outcome') recordOutcome(input, say);
    const waiting = input.kind === 'outcome' && inFlight < config.maxPlansInFlight ? deferred.shift() : undefined;
    if (waiting) return decide(waiting, world, say);
    const suggested = input.kind === 'suggestion' ? screenSuggestion(input, say) : undefined;
    if (suggested === null) return;
    const choices = [...new Set([...(suggested ? [suggested.goal] : []), ...needs.assess(world).map((need) => need.goal)])];
    const now = clock.now();
    const signal = signalOf(config, input, heard, state, { now, choices });
    const decision = gate.evaluate(signal);
    if (decision.think) state.thoughts.push((lastOpen = now));
    const onlyCooldown = decision.blocked.length === 1 && decision.blocked[0] === 'cooldown';
    if (onlyCooldown && input.kind === 'body') held = input;
    if (onlyCooldown && input.kind === 'suggestion') heldAsk = input;
    say({ type: 'cognition.gate', signal, think: decision.think, meaningfulness: decision.meaningfulness, blocked: decision.blocked, reason: decision.reason });
    if (!decision.think) return;
    // The most urgent need no running plan already pursues (a hut being built does not hide the missing sword).
    const formed = suggested ?? needs.formIntent(world, [...pursued.keys()]);
    await decide({ ...formed, context: { ...formed.context, eventType: heard.eventType } }, world, say);
  }

  function recordOutcome(input: Extract<CognitionInputParsed, { kind: 'outcome' }>, say: Say): void {
    router.recordOutcome(input.planId, input.status === 'completed');
    const reason = input.failure ? `${input.failure.code}: ${input.failure.reason}` : `plan ${input.status}`;
    say({ type: 'cognition.outcome', planId: input.planId, status: input.status, ...(input.failure ? { code: input.failure.code } : {}), reason });
  }

  /** The input filter on a suggestion: the intent, or null when refused (said with its rule). */
  function screenSuggestion(input: Extract<CognitionInputParsed, { kind: 'suggestion' }>, say: Say): Intent | null {
    const intent = router.screen(suggestionIntent(config, input));
    if (intent.safety.allowed) return intent;
    say({ type: 'cognition.refused', stage: 'input_filter', intentId: intent.id, ...splitRule(intent.safety.reason ?? 'safety.allowed is false') });
    return null;
  }

  async function decide(intent: Intent, world: PlannerWorld, say: Say): Promise<void> {
    const running = pursued.get(intent.goal);
    if (running !== undefined) {
      say({ type: 'cognition.busy', intentId: intent.id, goal: intent.goal, plansInFlight: inFlight, reason: `"${intent.goal}" is already being pursued by plan ${running}: not planned twice` });
      return;
    }
    if (inFlight >= config.maxPlansInFlight && intent.urgency < config.urgentAt) {
      const dropped = defer(intent);
      const why = `${inFlight} plan(s) running and urgency ${intent.urgency} < urgentAt ${config.urgentAt}: deferred until a plan ends`;
      say({ type: 'cognition.busy', intentId: intent.id, goal: intent.goal, plansInFlight: inFlight, reason: dropped ? `${why}; ${dropped.id} ("${dropped.goal}") dropped: more than maxDeferred ${config.maxDeferred} waiting` : why });
      return;
    }
    const route = router.route(intent);
    say({ type: 'cognition.route', intentId: intent.id, goal: intent.goal, urgency: intent.urgency, chosen: route.chosen, reason: route.reason });
    const result = await router.plan(intent, world);
    if (!result.ok) {
      const { code, reason } = result.failure;
      if (code === 'refused') say({ type: 'cognition.refused', stage: 'constitution', intentId: intent.id, ...splitRule(reason) });
      else say({ type: 'cognition.no_plan', intentId: intent.id, code, reason });
      return;
    }
    say({ type: 'cognition.plan', intentId: intent.id, planner: result.planner, planId: result.plan.planId, verbs: result.plan.steps.map((s) => s.type) });
    start(result.plan, intent);
  }

  /** Queues a decision by urgency (stable); returns the least urgent one when the queue overflows. */
  function defer(intent: Intent): Intent | undefined {
    const at = deferred.findIndex((waiting) => waiting.urgency < intent.urgency);
    deferred.splice(at === -1 ? deferred.length : at, 0, intent);
    return deferred.length > config.maxDeferred ? deferred.pop() : undefined;
  }

  function start(plan: Plan, intent: Intent): void {
    inFlight += 1;
    pursued.set(intent.goal, plan.planId);
    const run = (async () => {
      const outcome = await options.executor.run(plan, { intent }).catch((error: unknown) => ({ status: 'failed', failure: { code: 'runner_error', reason: `executor.run threw: ${describeError(error)}` } }));
      inFlight -= 1;
      pursued.delete(intent.goal);
      await ingest({ kind: 'outcome', tick: lastTick, planId: plan.planId, status: outcome.status, ...(outcome.failure ? { failure: { code: outcome.failure.code, reason: outcome.failure.reason } } : {}) });
    })();
    running.add(run);
    void run.finally(() => running.delete(run));
  }

  function ingest(input: CognitionInput): Promise<readonly CognitionEvent[]> {
    const next = queue.then(() => handle(input));
    queue = next.catch(() => undefined);
    return next;
  }

  const offs = [options.belief?.on('message', (message) => void ingest({ kind: 'belief', message })), options.signals?.((edge) => void ingest({ kind: 'body', ...edge }))];
  return {
    ingest,
    suggest: (suggestion) => ingest({ kind: 'suggestion', tick: lastTick, ...suggestion }),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle() {
      for (;;) {
        const seen = queue;
        await Promise.all([...running, seen]);
        if (running.size === 0 && queue === seen) return;
      }
    },
    plansInFlight: () => inFlight,
    close: () => offs.forEach((off) => off?.()),
  };
}

type BodyInput = Extract<CognitionInputParsed, { kind: 'body' }>;
type AskInput = Extract<CognitionInputParsed, { kind: 'suggestion' }>;

/** What an edge is about: `health`, `food`, the day part, or `stuck`. */
function subjectOf(edge: BodyEdge): string {
  return edge === 'day' || edge === 'night' ? 'daypart' : edge.split('_')[0]!;
}

/** A suggestion as an external intent (`source: 'user'`), with a deterministic id from its text and tick. */
function suggestionIntent(config: CognitionLoopConfig, input: Extract<CognitionInputParsed, { kind: 'suggestion' }>): Intent {
  return IntentSchema.parse({
    id: `suggest-${hashOf({ tick: input.tick, text: input.text, by: input.by }).slice(7, 19)}`,
    source: 'user',
    goal: input.text,
    urgency: input.urgency ?? config.suggestionUrgency,
    traits: ['natural_language'],
    context: { via: input.via, by: input.by },
    ...(input.timeBudgetMs !== undefined ? { timeBudgetMs: input.timeBudgetMs } : {}),
    ...(input.provenanceRef !== undefined ? { provenanceRef: input.provenanceRef } : {}),
  });
}

function hashOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)}`;
}

/** A value that may be hostile (getters that throw, cycles) as something hashable. */
function safeJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null');
  } catch (error) {
    return `unreadable: ${describeError(error)}`;
  }
}
