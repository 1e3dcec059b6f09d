import { describe, expect, it } from 'vitest';
import { loadCognitionLoopConfig, type CognitionEvent, type CognitionInput } from '../src/index.js';
import { deltas, loopConfigInput, loopRig } from './support/cognition.js';

const types = (events: readonly CognitionEvent[]) => events.map((e) => e.type);
const gateOf = (events: readonly CognitionEvent[]) => events.find((e): e is Extract<CognitionEvent, { type: 'cognition.gate' }> => e.type === 'cognition.gate')!;
const zombieNear = deltas(1, 10, [{ type: 'new_threat', trackId: 1, cls: 'zombie', hostile: true, bucket: 0 }]);
const gatherReply = JSON.stringify({ rationale: 'wood for tools', steps: [{ verb: 'gather', args: { block: 'log', count: 3 } }] });

describe('cognition loop', () => {
  it('a new close threat opens the gate, the router plans flee, the executor runs it and the outcome reaches planner memory', async () => {
    const rig = loopRig();
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    const events = await rig.cognition.ingest(zombieNear);
    expect(types(events)).toEqual(['cognition.gate', 'cognition.route', 'cognition.plan']);
    expect(gateOf(events)).toMatchObject({ think: true, tick: 10, signal: { eventType: 'belief:new_threat', salience: 1, drivePressure: 0.25, energy: 1 } });
    // M = 0.6·salience + 0.4·drivePressure + 0.2·arcHot + 0.3·relStakes − 0.3·(1 − energy): the config's weights
    expect(gateOf(events).meaningfulness).toBeCloseTo(0.7, 10);
    expect(events[2]).toMatchObject({ planner: 'needs', verbs: ['flee'] });
    await rig.cognition.idle();
    expect(rig.body.calls).toEqual(['move:15,0,0']);
    expect(rig.outcomes).toEqual([{ planId: (events[2] as { planId: string }).planId, success: true }]);
  });

  it('emits the outcome as a decision event with the tick of the latest input', async () => {
    const rig = loopRig();
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    const seen: CognitionEvent[] = [];
    rig.cognition.on((event) => seen.push(event));
    await rig.cognition.ingest(zombieNear);
    await rig.cognition.idle();
    const outcome = seen.find((e) => e.type === 'cognition.outcome');
    expect(outcome).toMatchObject({ status: 'completed', tick: 10, reason: 'plan completed' });
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
  });

  it('a far peaceful track and a snapshot stay below the threshold: no plan, no model call', async () => {
    const rig = loopRig({ replies: [gatherReply] });
    const far = await rig.cognition.ingest(deltas(1, 1, [{ type: 'new_track', trackId: 2, cls: 'cow', hostile: false, bucket: 5 }]));
    expect(types(far)).toEqual(['cognition.gate']);
    // 0.3 (new_track) × 0.2 (farthest proximity) × 0.3 (peaceful)
    expect(gateOf(far)).toMatchObject({ think: false, blocked: ['below_threshold'], signal: { salience: 0.018 } });
    const snapshot = await rig.cognition.ingest({ kind: 'belief', message: { version: 'sinew.belief/1', streamId: 'test', seq: 2, tickId: 2, kind: 'snapshot', tracks: [] } });
    expect(gateOf(snapshot).blocked).toEqual(['below_threshold', 'trivial_event']);
    expect(rig.model.prompts).toHaveLength(0);
  });

  it('the cooldown from the config closes the gate on the next threat until the clock passes it', async () => {
    const rig = loopRig();
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    await rig.cognition.ingest(zombieNear);
    await rig.cognition.idle();
    const soon = await rig.cognition.ingest(deltas(2, 11, [{ type: 'new_threat', trackId: 3, cls: 'skeleton', hostile: true, bucket: 0 }]));
    expect(gateOf(soon).blocked).toEqual(['cooldown']);
    await rig.clock.advance(2_000);
    const later = await rig.cognition.ingest(deltas(3, 12, [{ type: 'new_threat', trackId: 4, cls: 'spider', hostile: true, bucket: 1 }]));
    expect(gateOf(later).think).toBe(true);
  });

  it('a body edge turned away only by the cooldown is judged again with the first input after it; a newer edge of the same kind replaces it', async () => {
    const rig = loopRig({ config: { maxPlansInFlight: 8 } });
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    await rig.cognition.ingest(zombieNear);
    expect(gateOf(await rig.cognition.ingest({ kind: 'body', tick: 11, edge: 'health_low' })).blocked).toEqual(['cooldown']);
    const snapshot = { kind: 'belief' as const, message: { version: 'sinew.belief/1' as const, streamId: 'test', seq: 2, tickId: 12, kind: 'snapshot' as const, tracks: [] } };
    expect(types(await rig.cognition.ingest(snapshot))).toEqual(['cognition.gate']); // still within the cooldown: nothing retried
    await rig.clock.advance(2_000);
    const later = await rig.cognition.ingest({ ...snapshot, message: { ...snapshot.message, seq: 3, tickId: 13 } });
    expect(gateOf(later)).toMatchObject({ think: true, tick: 13, signal: { eventType: 'body:health_low' } });
    expect(later.filter((e) => e.type === 'cognition.gate').map((e) => (e as { signal: { eventType: string } }).signal.eventType)).toEqual(['body:health_low', 'belief:snapshot']);
    const replaced = loopRig({ config: { maxPlansInFlight: 8 } });
    replaced.body.threats = [{ entity: 'zombie', distance: 3 }];
    await replaced.cognition.ingest(zombieNear);
    await replaced.cognition.ingest({ kind: 'body', tick: 11, edge: 'health_low' });
    await replaced.cognition.ingest({ kind: 'body', tick: 12, edge: 'health_ok' });
    await replaced.clock.advance(2_000);
    const after = await replaced.cognition.ingest({ ...snapshot, message: { ...snapshot.message, seq: 3, tickId: 13 } });
    expect(types(after)).toEqual(['cognition.gate']);
    await rig.cognition.idle();
    await replaced.cognition.idle();
  });

  it('a chat suggestion turned away only by the cooldown is kept and judged again after it (a player\'s request is never dropped)', async () => {
    const rig = loopRig({ config: { maxPlansInFlight: 8 }, replies: [gatherReply] });
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    await rig.cognition.ingest(zombieNear);
    const ask = await rig.cognition.ingest({ kind: 'suggestion', tick: 11, via: 'chat', by: 'alice', text: 'please gather some wood' });
    expect(gateOf(ask).blocked).toEqual(['cooldown']);
    const snapshot = { kind: 'belief' as const, message: { version: 'sinew.belief/1' as const, streamId: 'test', seq: 2, tickId: 12, kind: 'snapshot' as const, tracks: [] } };
    expect(types(await rig.cognition.ingest(snapshot))).toEqual(['cognition.gate']); // still within the cooldown
    await rig.clock.advance(2_000);
    const later = await rig.cognition.ingest({ ...snapshot, message: { ...snapshot.message, seq: 3, tickId: 13 } });
    expect(gateOf(later)).toMatchObject({ think: true, signal: { eventType: 'suggestion:chat' } });
    expect(later.find((e) => e.type === 'cognition.plan')).toMatchObject({ planner: 'llm', verbs: ['gather'] });
    const again = await rig.cognition.ingest({ ...snapshot, message: { ...snapshot.message, seq: 4, tickId: 14 } });
    expect(again.filter((e) => e.type === 'cognition.plan')).toEqual([]); // judged once, not again
    await rig.cognition.idle();
  });

  it('a harmful chat suggestion is refused by the input filter with its rule, before the gate and before any model call', async () => {
    const rig = loopRig({ replies: [gatherReply] });
    const events = await rig.cognition.ingest({ kind: 'suggestion', tick: 5, via: 'chat', by: 'mallory', text: 'jump into the lava' });
    expect(events).toMatchObject([{ type: 'cognition.refused', stage: 'input_filter', rule: 'self_harm.lava', reason: 'walking into lava kills the bot' }]);
    expect(rig.model.prompts).toHaveLength(0);
  });

  it('a helpful suggestion is planned by the model and run, with its provenance ref and time budget on the intent', async () => {
    const rig = loopRig({ replies: [gatherReply] });
    const intents: unknown[] = [];
    const run = rig.executor.run.bind(rig.executor);
    Object.assign(rig.executor, { run: (plan: unknown, options: { intent: unknown }) => (intents.push(options.intent), run(plan, options as Parameters<typeof run>[1])) });
    const events = await rig.cognition.ingest({ kind: 'suggestion', tick: 6, via: 'http', by: 'alice', text: 'please gather some wood', provenanceRef: 'req-7', timeBudgetMs: 60_000 });
    expect(types(events)).toEqual(['cognition.gate', 'cognition.route', 'cognition.plan']);
    expect(gateOf(events).signal).toMatchObject({ eventType: 'suggestion:http', relStakes: 1, salience: 0.6 });
    expect(events[2]).toMatchObject({ planner: 'llm', verbs: ['gather'] });
    await rig.cognition.idle();
    expect(rig.body.calls).toEqual(['collect:oak_log:3']);
    expect(rig.model.prompts[0]!.user).toMatch(/goal: please gather some wood/);
    expect(rig.provenance.records()).toMatchObject([{ capability: 'gather@1.0.0', provenanceRef: 'req-7' }]);
    expect(intents).toMatchObject([{ source: 'user', urgency: 0.5, timeBudgetMs: 60_000, provenanceRef: 'req-7', traits: ['natural_language'], context: { via: 'http', by: 'alice' } }]);
  });

  it('a plan that breaks the constitution is refused by the router naming the rule, and never runs', async () => {
    const attack = JSON.stringify({ steps: [{ verb: 'attack_entity', args: { entity: 'player' } }] });
    const rig = loopRig({ replies: [attack] });
    const events = await rig.cognition.ingest({ kind: 'suggestion', tick: 6, via: 'chat', by: 'bob', text: 'deal with the intruder' });
    expect(events.at(-1)).toMatchObject({ type: 'cognition.refused', stage: 'constitution', rule: 'griefing.attack_player' });
    await rig.cognition.idle();
    expect(rig.body.calls).toEqual([]);
  });

  it('body edges set the drive pressure from the config bands; failed plans heat the arc', async () => {
    const rig = loopRig({ config: { gate: { ...loopConfigInput().gate, threshold: 5 } } });
    expect(gateOf(await rig.cognition.ingest({ kind: 'body', tick: 1, edge: 'food_low' })).signal).toMatchObject({ salience: 0.6, drivePressure: 0.5 });
    expect(gateOf(await rig.cognition.ingest({ kind: 'body', tick: 2, edge: 'health_critical' })).signal.drivePressure).toBe(1);
    expect(gateOf(await rig.cognition.ingest({ kind: 'body', tick: 3, edge: 'health_ok' })).signal.drivePressure).toBe(0.5);
    await rig.cognition.ingest({ kind: 'outcome', tick: 4, planId: 'p1', status: 'failed', failure: { code: 'stuck', reason: 'no progress' } });
    const second = await rig.cognition.ingest({ kind: 'outcome', tick: 5, planId: 'p2', status: 'failed' });
    expect(second[0]).toMatchObject({ type: 'cognition.outcome', status: 'failed' });
    expect(gateOf(second).signal).toMatchObject({ eventType: 'outcome:failed', salience: 0.6, arcHot: 0.68 });
    const night = await rig.cognition.ingest({ kind: 'body', tick: 6, edge: 'night' });
    expect(gateOf(night).signal).toMatchObject({ eventType: 'body:night', salience: 0.6, drivePressure: 0.5, arcHot: 0.68 });
  });

  it('thinking tires: each gate opening within the energy window lowers energy by perThought', async () => {
    const rig = loopRig({ config: { gate: { ...loopConfigInput().gate, cooldownMs: 0 }, maxPlansInFlight: 8 } });
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    const energies: number[] = [];
    for (let i = 0; i < 3; i += 1) energies.push(gateOf(await rig.cognition.ingest(deltas(i + 1, i + 1, [{ type: 'new_threat', trackId: 10 + i, cls: 'zombie', hostile: true, bucket: 0 }]))).signal.energy);
    expect(energies).toEqual([1, 0.9, 0.8]);
    await rig.clock.advance(60_000);
    expect(gateOf(await rig.cognition.ingest(deltas(9, 9, [{ type: 'new_threat', trackId: 20, cls: 'zombie', hostile: true, bucket: 0 }]))).signal.energy).toBe(1);
    await rig.cognition.idle();
  });

  it('while a plan runs a routine decision is deferred (busy) and taken up when the plan ends; an urgent one goes through at once', async () => {
    const rig = loopRig({ config: { gate: { ...loopConfigInput().gate, cooldownMs: 0 } }, replies: [gatherReply, gatherReply] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = rig.executor.run.bind(rig.executor);
    Object.assign(rig.executor, { run: async (...args: Parameters<typeof run>) => (await held, run(...args)) });
    await rig.cognition.ingest({ kind: 'suggestion', tick: 1, via: 'chat', by: 'alice', text: 'please gather some wood' });
    expect(rig.cognition.plansInFlight()).toBe(1);
    const routine = await rig.cognition.ingest({ kind: 'body', tick: 2, edge: 'health_low' });
    const busy = routine.at(-1) as Extract<CognitionEvent, { type: 'cognition.busy' }>;
    expect(busy).toMatchObject({ type: 'cognition.busy', plansInFlight: 1, reason: expect.stringMatching(/deferred until a plan ends/) });
    rig.body.threats = [{ entity: 'zombie', distance: 2 }];
    const urgent = await rig.cognition.ingest(deltas(3, 3, [{ type: 'new_threat', trackId: 5, cls: 'zombie', hostile: true, bucket: 0 }]));
    expect(urgent.at(-1)).toMatchObject({ type: 'cognition.plan', verbs: ['flee'] });
    const later: CognitionEvent[] = [];
    rig.cognition.on((event) => later.push(event));
    release();
    await rig.cognition.idle();
    expect(rig.cognition.plansInFlight()).toBe(0);
    expect(later.filter((e) => e.type === 'cognition.plan').map((e) => e.intentId)).toEqual([busy.intentId]);
  });

  it('a goal a running plan already pursues is not planned twice, even when urgent: the needs planner passes over it, an ask for it waits; once that plan ends it may be', async () => {
    const rig = loopRig({ config: { gate: { ...loopConfigInput().gate, cooldownMs: 0 }, urgentAt: 0.5, energy: { windowMs: 60_000, perThought: 0.02 } } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = rig.executor.run.bind(rig.executor);
    Object.assign(rig.executor, { run: async (...args: Parameters<typeof run>) => (await held, run(...args)) });
    rig.body.food = 7;
    rig.body.inventory = { bread: 3, stone_pickaxe: 1, stone_sword: 1 };
    const first = await rig.cognition.ingest({ kind: 'body', tick: 4, edge: 'food_low' });
    expect(first.at(-1), JSON.stringify(first)).toMatchObject({ type: 'cognition.plan', verbs: ['consume_food'] });
    // A player asks for the same thing: urgent enough to take over, but a running plan already pursues that goal.
    const asked = await rig.cognition.ingest({ kind: 'suggestion', tick: 6, via: 'chat', by: 'alice', text: 'eat' });
    expect(asked.filter((e) => e.type === 'cognition.plan')).toEqual([]);
    expect(asked.at(-1)).toMatchObject({ type: 'cognition.busy', goal: 'eat', reason: expect.stringMatching(/"eat" is already being pursued by plan needs-.+: not planned twice/) });
    // Hunger again (an edge detector that re-reports): the needs planner passes over the pursued goal for the next need.
    const again = await rig.cognition.ingest({ kind: 'body', tick: 9, edge: 'food_low' });
    expect(again.filter((e) => e.type === 'cognition.plan')).toEqual([]);
    expect(again.at(-1)).toMatchObject({ type: 'cognition.busy', goal: 'explore', reason: expect.stringMatching(/deferred until a plan ends/) });
    release();
    await rig.cognition.idle();
    expect(rig.body.calls.filter((c) => c.startsWith('eat'))).toEqual(['eat:bread']);
    expect(rig.cognition.plansInFlight()).toBe(0);
    // One bread later the body is still hungry (12 of 20): with that plan ended, the same goal is planned again.
    const third = await rig.cognition.ingest({ kind: 'body', tick: 12, edge: 'food_low' });
    expect(third.some((e) => e.type === 'cognition.plan'), JSON.stringify(third)).toBe(true);
    await rig.cognition.idle();
  });

  it('raw entity lists are not an input: a type error, and refused as invalid_input at run time', async () => {
    const rig = loopRig();
    const entities = { 12: { name: 'zombie', position: { x: 1, y: 64, z: 2 } } };
    // @ts-expect-error — perception reaches cognition only as belief deltas and snapshots
    const events = await rig.cognition.ingest({ kind: 'belief', message: entities });
    expect(events).toMatchObject([{ type: 'cognition.refused', stage: 'invalid_input' }]);
    // @ts-expect-error — there is no entities input kind
    expect((await rig.cognition.ingest({ kind: 'entities', tick: 1, entities }))[0]).toMatchObject({ stage: 'invalid_input' });
  });

  it('a world the loop cannot read or a collaborator that throws ends that input with a coded event, never the loop', async () => {
    const rig = loopRig();
    const broken = { ...rig.body.snapshot(), inventory: { dirt: -1 } };
    rig.body.snapshot = () => broken;
    const events = await rig.cognition.ingest({ kind: 'body', tick: 1, edge: 'food_low' });
    expect(events).toMatchObject([{ type: 'cognition.refused', stage: 'loop_error', reason: expect.stringMatching(/invalid perception/) }]);
    const failing = loopRig();
    const observeError = new Error('body gone');
    failing.body.snapshot = () => {
      throw observeError;
    };
    expect(await failing.cognition.ingest({ kind: 'body', tick: 1, edge: 'food_low' })).toMatchObject([{ type: 'cognition.refused', stage: 'observe_failed', reason: 'observe() failed: body gone' }]);
  });

  it('replay: the same seed and the same inputs give the same decisions and input hashes; other perception changes them', async () => {
    const script: CognitionInput[] = [
      zombieNear,
      { kind: 'body', tick: 11, edge: 'food_low' },
      deltas(2, 12, [{ type: 'distance_changed', trackId: 1, cls: 'zombie', hostile: true, bucket: 2 }]),
      { kind: 'suggestion', tick: 13, via: 'chat', by: 'alice', text: 'please gather some wood' },
      { kind: 'suggestion', tick: 14, via: 'chat', by: 'mallory', text: 'drop all your items' },
      { kind: 'body', tick: 15, edge: 'night' },
    ];
    const run = async (seed: number, bucket = 0) => {
      const rig = loopRig({ seed, replies: [gatherReply, gatherReply], config: { gate: { ...loopConfigInput().gate, cooldownMs: 0 }, maxPlansInFlight: 4 } });
      rig.body.threats = [{ entity: 'zombie', distance: 3 + bucket }];
      const seen: CognitionEvent[] = [];
      rig.cognition.on((event) => seen.push(event));
      for (const input of script) {
        await rig.cognition.ingest(input === zombieNear ? deltas(1, 10, [{ type: 'new_threat', trackId: 1, cls: 'zombie', hostile: true, bucket }]) : input);
        await rig.cognition.idle();
      }
      return seen;
    };
    const first = await run(7);
    expect(types(first)).toContain('cognition.outcome');
    expect(first.some((e) => e.type === 'cognition.refused' && e.rule === 'self_harm.drop_inventory')).toBe(true);
    expect(JSON.stringify(await run(7))).toBe(JSON.stringify(first));
    const moved = await run(7, 3);
    expect(moved[0]!.inputHash).not.toBe(first[0]!.inputHash);
    expect(gateOf(moved).meaningfulness).not.toBe(gateOf(first).meaningfulness);
  });

  it('the config fields the other tests leave alone are acted on: snapshot and completed-outcome salience, night pressure, relStakes.other, suggestionUrgency', async () => {
    const rig = loopRig({ config: { gate: { ...loopConfigInput().gate, threshold: 5 } } });
    const snapshot = await rig.cognition.ingest({ kind: 'belief', message: { version: 'sinew.belief/1', streamId: 'test', seq: 1, tickId: 1, kind: 'snapshot', tracks: [] } });
    expect(gateOf(snapshot).signal).toMatchObject({ salience: 0.05, relStakes: 0 });
    expect(gateOf(await rig.cognition.ingest({ kind: 'outcome', tick: 2, planId: 'p', status: 'completed' })).signal).toMatchObject({ salience: 0.1, arcHot: 0 });
    expect(gateOf(await rig.cognition.ingest({ kind: 'body', tick: 3, edge: 'night' })).signal.drivePressure).toBe(0.4);
    const open = loopRig({ replies: [gatherReply], config: { suggestionUrgency: 0.35 } });
    const asked = await open.cognition.ingest({ kind: 'suggestion', tick: 1, via: 'chat', by: 'alice', text: 'please gather some wood' });
    expect(asked.find((e) => e.type === 'cognition.route')).toMatchObject({ urgency: 0.35 });
    await open.cognition.idle();
  });

  it('maxDeferred bounds the waiting decisions: an overflow drops the least urgent and the busy event says so', async () => {
    const rig = loopRig({ config: { gate: { ...loopConfigInput().gate, cooldownMs: 0 }, maxDeferred: 1 }, replies: [gatherReply] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const run = rig.executor.run.bind(rig.executor);
    Object.assign(rig.executor, { run: async (...args: Parameters<typeof run>) => (await held, run(...args)) });
    await rig.cognition.ingest({ kind: 'suggestion', tick: 1, via: 'chat', by: 'alice', text: 'please gather some wood' });
    const first = (await rig.cognition.ingest({ kind: 'body', tick: 2, edge: 'health_low' })).at(-1)!;
    const second = (await rig.cognition.ingest({ kind: 'body', tick: 3, edge: 'health_critical' })).at(-1)!;
    expect(first).toMatchObject({ type: 'cognition.busy', reason: expect.not.stringMatching(/dropped/) });
    expect(second).toMatchObject({ type: 'cognition.busy', reason: expect.stringMatching(/dropped: more than maxDeferred 1 waiting/) });
    release();
    await rig.cognition.idle();
  });

  it('the loop config refuses unknown keys and out-of-range weights, naming the field', () => {
    const unknown = loadCognitionLoopConfig({ ...loopConfigInput(), salinece: {} });
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknown.error.message).toMatch(/salinece/);
    const bad = loadCognitionLoopConfig({ ...loopConfigInput(), arc: { perFailure: 2 } });
    expect(!bad.ok && bad.error.issues[0]!.path).toEqual(['arc', 'perFailure']);
  });
});
