import type { Executor, ExecutorEventName, ExecutorEvents } from '@sinew/bt-runtime';
import { readBot, type BotLike } from '../status.js';
import type { EventHub } from './hub.js';
import type { PlanOutcomes } from './outcomes.js';

/** Executor events forwarded as they are (plan ends become `executionComplete`, see `outcomes.ts`; `bt.transition` gains `from`). */
const FORWARDED = [
  'plan.started',
  'step.dispatched',
  'step.first_action',
  'step.retry',
  'step.succeeded',
  'step.failed',
  'step.preempted',
  'step.resumed',
] as const satisfies readonly ExecutorEventName[];

/** Every event type the stream carries. */
export const EVENT_TYPES = [
  'stream.hello',
  'stream.subscribed',
  'stream.error',
  'botEvent',
  'beliefEvent',
  'cognitionEvent',
  'planGenerated',
  ...FORWARDED,
  'bt.transition',
  'executionComplete',
  'safety_emergency',
  'preemptComplete',
] as const;
/** The type of a stream event. */
export type SinewEventType = (typeof EVENT_TYPES)[number];

/**
 * The time an executor event carries, read from the executor's clock as it was built (the hub reads the same clock):
 * the hub stamps these without a clock read of its own.
 */
const STAMPED: { readonly [E in (typeof FORWARDED)[number]]?: (payload: ExecutorEvents[E]) => number } = {
  'step.first_action': (payload) => payload.at,
  'step.succeeded': (payload) => payload.endedAt,
  'step.failed': (payload) => payload.endedAt,
};

/** Forwards one executor event to the hub, stamped with the time it carries (if it carries one). */
function forward<Body, E extends (typeof FORWARDED)[number]>(executor: Executor<Body>, hub: EventHub, name: E): () => void {
  const stampOf = STAMPED[name] as ((payload: ExecutorEvents[E]) => number) | undefined;
  return executor.on(name, stampOf ? (payload) => hub.publish(name, payload, stampOf(payload)) : (payload) => hub.publish(name, payload));
}

/**
 * Subscribes the hub to the executor (plan endings through `outcomes`); returns the unsubscribe. The hub's clock must
 * be the executor's (`executor.clock`): the times its events carry stamp them.
 */
export function forwardExecutor<Body>(executor: Executor<Body>, hub: EventHub, outcomes: PlanOutcomes): () => void {
  const offs = FORWARDED.map((name) => forward(executor, hub, name));
  const ended = (outcome: ExecutorEvents['plan.completed']) => outcomes.ended(outcome);
  offs.push(executor.on('plan.completed', ended), executor.on('plan.failed', ended));
  offs.push(forwardTransitions(executor, hub));
  return () => offs.forEach((off) => off());
}

/** `bt.transition` with the node's previous state (`from`) within the same attempt. */
function forwardTransitions<Body>(executor: Executor<Body>, hub: EventHub): () => void {
  // The attempt whose node states `states` holds: compared field by field (no key string per transition).
  let planId: string | undefined;
  let stepId: string | undefined;
  let attempt = 0;
  const states = new Map<string, string>();
  return executor.on('bt.transition', (event: ExecutorEvents['bt.transition']) => {
    if (event.planId !== planId || event.stepId !== stepId || event.attempt !== attempt) {
      ({ planId, stepId, attempt } = event);
      states.clear();
    }
    const from = states.get(event.nodePath) ?? 'ready';
    states.set(event.nodePath, event.state);
    hub.publish('bt.transition', { planId: event.planId, stepId: event.stepId, verb: event.verb, attempt: event.attempt, nodePath: event.nodePath, from, to: event.state });
  });
}

/** One decision of a cognition loop, as the stream carries it (a `CognitionEvent` of @sinew/planners fits). */
export interface CognitionEventLike {
  readonly type: string;
  readonly seq: number;
  readonly tick: number;
  readonly inputHash: string;
}

/** A cognition loop's decision events (a `Cognition` of @sinew/planners' `createCognition` fits). */
export interface CognitionSource {
  /** Subscribes to the decision events; returns the unsubscribe. */
  on(listener: (event: CognitionEventLike) => void): () => void;
  /**
   * Takes a suggestion into the loop (a `Cognition` has it): with it, `POST /api/cognitive/signals` goes through the
   * loop's input filter and gate like a chat line, instead of straight to the router.
   */
  suggest?(suggestion: {
    readonly via: 'http';
    readonly text: string;
    readonly by: string;
    readonly urgency?: number;
    readonly timeBudgetMs?: number;
    readonly provenanceRef?: string;
  }): Promise<readonly CognitionEventLike[]>;
}

/** Publishes every decision of the loop as `cognitionEvent` (the inspector's inner monologue); returns the unsubscribe. */
export function forwardCognition(cognition: CognitionSource, hub: EventHub): () => void {
  return cognition.on((event) => hub.publish('cognitionEvent', event));
}

/** Samples the bot every `intervalMs` and publishes `botEvent` when what it reports changed (rate-limited by construction). */
export function sampleBot(bot: BotLike, hub: EventHub, intervalMs: number): () => void {
  let last = '';
  const timer = setInterval(() => {
    const snapshot = readBot(bot);
    const text = JSON.stringify(snapshot);
    if (text === last) return;
    last = text;
    hub.publish('botEvent', snapshot);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** What the server reads of a reflex event (`ReflexEvent` of @sinew/belief fits). */
export interface ReflexEventLike {
  readonly type: string;
  readonly tickId?: number;
  readonly trackId?: number;
  readonly distance?: number;
  readonly step?: { readonly stepId: string; readonly type: string; readonly args?: Readonly<Record<string, unknown>> };
}

/** A reflex preemption as `safety_emergency`: the threat's class and distance and the fast-path step. */
export function safetyEmergency(event: ReflexEventLike, classOf: (trackId: number) => string | undefined): Record<string, unknown> | undefined {
  if (event.type !== 'preempt' || event.step === undefined) return undefined;
  const trackId = typeof event.trackId === 'number' ? event.trackId : undefined;
  const entity = event.step.args?.entity;
  const cls = (trackId === undefined ? undefined : classOf(trackId)) ?? (typeof entity === 'string' ? entity : 'unknown');
  return { class: cls, distance: event.distance ?? null, trackId: trackId ?? null, tickId: event.tickId ?? null, action: event.step.type, stepId: event.step.stepId };
}
