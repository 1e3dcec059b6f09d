import type { GateSignal } from '../llm/gate.js';
import type { BodyEdge, CognitionLoopConfig } from './config.js';
import type { BeliefMessage, CognitionInputParsed } from './inputs.js';

type Track = Extract<BeliefMessage, { kind: 'snapshot' }>['tracks'][number];
type Band = 'ok' | 'low' | 'critical';

/** What the loop remembers between events: the belief view, the body's bands, the failing streak, when it thought. */
export interface LoopState {
  readonly tracks: Map<number, Track>;
  health: Band;
  food: Band;
  night: boolean;
  failures: number;
  /** Clock times the gate opened (pruned to the energy window). */
  thoughts: number[];
}

/** A fresh state: nothing tracked, healthy, fed, day. */
export function initialLoopState(): LoopState {
  return { tracks: new Map(), health: 'ok', food: 'ok', night: false, failures: 0, thoughts: [] };
}

/** The state as plain data, in a stable order (what the input hash covers). */
export function stateDigest(state: LoopState): Record<string, unknown> {
  return {
    tracks: [...state.tracks.values()].sort((a, b) => a.trackId - b.trackId),
    health: state.health,
    food: state.food,
    night: state.night,
    failures: state.failures,
    thoughts: state.thoughts.length,
  };
}

/**
 * Salience of one input, in [0, 1]: a belief deltas message is as salient as its most salient delta —
 * `salience.deltas[type]` × `salience.proximity[bucket]` (the last entry covers farther buckets) ×
 * (`salience.peaceful` when the track is not hostile); a snapshot is `salience.snapshot`; a body edge
 * `salience.body[edge]`; a suggestion `salience.suggestion`; an outcome `salience.outcome.completed|failed`.
 */
export function salienceOf(config: CognitionLoopConfig, input: CognitionInputParsed, state: LoopState): { salience: number; eventType: string } {
  const s = config.salience;
  switch (input.kind) {
    case 'belief': {
      if (input.message.kind === 'snapshot') return { salience: s.snapshot, eventType: 'belief:snapshot' };
      let best = { salience: -1, eventType: 'belief:deltas' };
      for (const delta of input.message.deltas) {
        const track = 'track' in delta ? delta.track : state.tracks.get(delta.trackId);
        const proximity = s.proximity[Math.min(track?.distanceBucket ?? Infinity, s.proximity.length - 1)]!;
        const kind = track === undefined || track.hostile ? 1 : s.peaceful;
        const value = s.deltas[delta.type as keyof typeof s.deltas] * proximity * kind;
        if (value > best.salience) best = { salience: value, eventType: `belief:${delta.type}` };
      }
      return best;
    }
    case 'body':
      return { salience: s.body[input.edge], eventType: `body:${input.edge}` };
    case 'suggestion':
      return { salience: s.suggestion, eventType: `suggestion:${input.via}` };
    case 'outcome': {
      const completed = input.status === 'completed';
      return { salience: completed ? s.outcome.completed : s.outcome.failed, eventType: `outcome:${completed ? 'completed' : 'failed'}` };
    }
  }
}

/** Applies an input to the state: tracks from snapshots and deltas, bands and day part from body edges, the failing streak from outcomes. */
export function applyInput(state: LoopState, input: CognitionInputParsed): void {
  if (input.kind === 'belief') applyBelief(state, input.message);
  else if (input.kind === 'body') applyEdge(state, input.edge);
  else if (input.kind === 'outcome') state.failures = input.status === 'completed' ? 0 : state.failures + 1;
}

function applyBelief(state: LoopState, message: BeliefMessage): void {
  if (message.kind === 'snapshot') {
    state.tracks.clear();
    for (const track of message.tracks) state.tracks.set(track.trackId, track);
    return;
  }
  for (const delta of message.deltas) {
    if (delta.type === 'track_lost') state.tracks.delete(delta.trackId);
    else state.tracks.set(delta.trackId, delta.track);
  }
}

function applyEdge(state: LoopState, edge: BodyEdge): void {
  const [subject, level] = edge.split('_') as [string, Band | undefined];
  if (subject === 'health' && level) state.health = level;
  else if (subject === 'food' && level) state.food = level;
  else if (edge === 'night' || edge === 'day') state.night = edge === 'night';
}

/** Drive pressure in [0, 1]: the largest of `drive.health[band]`, `drive.food[band]`, `drive.night` at night, and `drive.perThreat` × tracked threats (capped at 1). */
export function drivePressure(config: CognitionLoopConfig, state: LoopState): number {
  const threats = [...state.tracks.values()].filter((t) => t.threat).length;
  return Math.min(1, Math.max(config.drive.health[state.health], config.drive.food[state.food], state.night ? config.drive.night : 0, threats * config.drive.perThreat));
}

/** Energy in [0, 1]: 1 − `energy.perThought` × the gate openings within the last `energy.windowMs` (thinking tires). */
export function energyOf(config: CognitionLoopConfig, state: LoopState, now: number): number {
  state.thoughts = state.thoughts.filter((at) => now - at < config.energy.windowMs);
  return Math.max(0, 1 - config.energy.perThought * state.thoughts.length);
}

/**
 * The seeds/001 signal of one input, by the documented functions above: salience, drive pressure,
 * arcHot = min(1, failures × `arc.perFailure`), relStakes (`relStakes.user` for a suggestion, else
 * `relStakes.other`), energy, and the choices open now.
 */
export function signalOf(config: CognitionLoopConfig, input: CognitionInputParsed, before: { salience: number; eventType: string }, state: LoopState, context: { now: number; choices: readonly string[] }): GateSignal {
  return {
    eventType: before.eventType,
    salience: before.salience,
    drivePressure: drivePressure(config, state),
    arcHot: Math.min(1, state.failures * config.arc.perFailure),
    relStakes: input.kind === 'suggestion' ? config.relStakes.user : config.relStakes.other,
    energy: energyOf(config, state, context.now),
    choices: [...context.choices],
  };
}
