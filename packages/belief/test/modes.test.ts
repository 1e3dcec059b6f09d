import { describe, expect, it } from 'vitest';
import { ConfigError, ManualClock } from '@sinew/executor-contracts';
import { BeliefConfigError, createModes, resolveModesConfig, type BodySignals, type ModeEvent, type ReflexThreat } from '@sinew/belief';
import { FakePreemptor, flush } from './fake-preemptor.js';

/** A small fake body: healthy, fed, on dry ground; each test changes what it needs. */
class FakeBody {
  signals: BodySignals = {
    health: 20,
    food: 20,
    oxygen: 20,
    inLava: false,
    inFire: false,
    onFire: false,
    eyesInWater: false,
    falling: false,
    hasFood: true,
    scaffoldBlocks: 0,
  };
  set(patch: Partial<BodySignals>): BodySignals {
    this.signals = { ...this.signals, ...patch };
    return this.signals;
  }
}

const zombieAt = (distance: number, cls = 'zombie'): ReflexThreat => ({
  trackId: 1,
  cls,
  hostile: true,
  visibility: 'visible',
  predicted: { x: distance, y: 5, z: 0 },
  distance,
});

function setup(options: { profile?: 'cautious' | 'brave'; auto?: boolean } = {}) {
  const clock = new ManualClock(1_000);
  const preemptor = new FakePreemptor(options.auto ? 'auto' : 'manual');
  const events: ModeEvent[] = [];
  const modes = createModes({ preemptor, profile: options.profile, now: () => clock.now(), onEvent: (e) => events.push(e) });
  return { clock, preemptor, events, modes, body: new FakeBody() };
}

describe('self-preservation modes', () => {
  it('rejects bad thresholds and unknown profiles with the field named', () => {
    expect(() => resolveModesConfig(undefined, { healthBelow: 14, healthReleaseAt: 10 })).toThrow(/healthReleaseAt/);
    expect(() => resolveModesConfig(undefined, { healthbelow: 5 } as never)).toThrow(BeliefConfigError);
    // The one config error of every package: instanceof ConfigError, code invalid_config, the field path.
    expect(() => resolveModesConfig(undefined, { healthbelow: 5 } as never)).toThrow(ConfigError);
    expect(() => resolveModesConfig(undefined, { healthBelow: -3 })).toThrow(
      expect.objectContaining({ code: 'invalid_config', where: 'belief', path: ['healthBelow'], issues: [expect.objectContaining({ path: ['healthBelow'], code: 'too_small' })] }),
    );
    expect(() => resolveModesConfig('reckless' as never)).toThrow(/unknown profile "reckless".*cautious, brave/);
    expect(resolveModesConfig('brave').defense.attackWithinBlocks).toBe(4);
    expect(resolveModesConfig('cautious', { healthBelow: 10 })).toMatchObject({ healthBelow: 10, healthReleaseAt: 16 });
  });

  it('fires escape_fluid on the rising edge of lava contact, once, and records the edge with its reason', () => {
    const { preemptor, events, modes, body } = setup();
    modes.body(body.signals);
    expect(preemptor.calls).toHaveLength(0);
    modes.body(body.set({ inLava: true, onFire: true, health: 16 }));
    modes.body(body.signals);
    modes.body(body.signals);
    expect(preemptor.calls).toHaveLength(1);
    expect(preemptor.calls[0]!.steps[0]).toMatchObject({ type: 'escape_fluid', args: { fluid: 'lava', radius: 8 } });
    expect(events.slice(0, 2)).toMatchObject([
      { type: 'signal', mode: 'hazard_block', edge: 'rise', reason: 'in lava' },
      { type: 'preempt', mode: 'hazard_block', tier: 'self_preservation', reason: 'in lava' },
    ]);
    expect(events.filter((e) => e.type === 'deferred')).toMatchObject([{ mode: 'hazard_block', reason: 'busy' }]);
  });

  it('a self-preservation fast path asks the executor to hold caution steps for the mode hold; defense does not', async () => {
    const { preemptor, modes, body } = setup();
    modes.body(body.set({ inLava: true }));
    expect(preemptor.calls[0]).toMatchObject({ reason: 'mode:hazard_block:escape_fluid', holdMs: modes.config.holdMs });
    preemptor.calls[0]!.settle();
    await flush();
    modes.body(body.set({ inLava: false }));
    modes.threats(2, [zombieAt(4)]);
    expect(preemptor.calls[1]).toMatchObject({ reason: expect.stringMatching(/^mode:defense/), holdMs: undefined });
  });

  it('still burning once out of the lava, the same mode goes on to put the fire out after its hold', async () => {
    const { clock, preemptor, modes, body } = setup({ auto: true });
    modes.body(body.set({ inLava: true, onFire: true }));
    await modes.idle();
    modes.body(body.set({ inLava: false }));
    expect(preemptor.calls).toHaveLength(1);
    await clock.advance(modes.config.holdMs);
    modes.body(body.signals);
    expect(preemptor.calls.map((c) => c.steps[0]!.args)).toMatchObject([{ fluid: 'lava' }, { fluid: 'fire' }]);
  });

  it('retries a mode still engaged only after its hold, and gives up after maxAttempts until it releases', async () => {
    const { clock, preemptor, events, modes, body } = setup();
    const bad = body.set({ eyesInWater: true, oxygen: 5 });
    modes.body(bad);
    preemptor.calls[0]!.settle('failed');
    await flush();
    modes.body(bad);
    expect(preemptor.calls).toHaveLength(1); // holding
    for (let attempt = 2; attempt <= 4; attempt += 1) {
      await clock.advance(modes.config.holdMs);
      modes.body(bad);
      expect(preemptor.calls).toHaveLength(attempt);
      preemptor.calls.at(-1)!.settle('failed');
      await flush();
    }
    await clock.advance(modes.config.holdMs);
    modes.body(bad);
    expect(preemptor.calls).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: 'gave_up', mode: 'drowning', attempts: 4 });
    modes.body(body.set({ eyesInWater: false, oxygen: 20 }));
    modes.body(body.set({ eyesInWater: true, oxygen: 5 }));
    expect(preemptor.calls).toHaveLength(5);
  });

  it('self-preservation outranks defense: a zombie in band waits while the bot is in lava', async () => {
    const { preemptor, modes, body } = setup();
    modes.body(body.set({ inLava: true }));
    modes.threats(1, [zombieAt(4)]);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['escape_fluid']);
    preemptor.calls[0]!.settle();
    await flush();
    modes.body(body.set({ inLava: false }));
    modes.threats(2, [zombieAt(4)]);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['escape_fluid', 'flee']);
    expect(preemptor.maxConcurrent).toBe(1);
  });

  it('self-preservation rising during a defense fast path takes over at once, at a higher tier; defense waits for it', async () => {
    const { preemptor, modes, body } = setup();
    modes.threats(1, [zombieAt(4)]);
    expect(modes.status().controller).toBe('defense');
    modes.body(body.set({ eyesInWater: true, oxygen: 4 }));
    expect(preemptor.calls.map((c) => [c.steps[0]!.type, c.tier])).toEqual([['flee', 1], ['escape_fluid', 2]]);
    expect(modes.status().controller).toBe('drowning');
    // the defense flight ending (the executor stopped it) frees nothing: the escape still holds the controller
    preemptor.calls[0]!.settle('failed');
    await flush();
    expect(modes.status().controller).toBe('drowning');
    modes.threats(2, [zombieAt(3)]);
    expect(preemptor.calls).toHaveLength(2);
    preemptor.calls[1]!.settle();
    await modes.idle();
    expect(modes.status().controller).toBeUndefined();
  });

  it('a fast path of the same tier, or defense during self-preservation, waits: one controller at a time', async () => {
    const { preemptor, events, modes, body } = setup();
    modes.body(body.set({ eyesInWater: true, oxygen: 4 }));
    modes.body(body.set({ inLava: true }));
    modes.threats(1, [zombieAt(3)]);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['escape_fluid']);
    expect(events).toContainEqual(expect.objectContaining({ type: 'deferred', mode: 'hazard_block', reason: 'busy' }));
    expect(preemptor.maxConcurrent).toBe(1);
  });

  it('low health rising in a fight flees at once (its tier stops the fight), keeps fleeing while a hostile is near, and defense waits', async () => {
    const { clock, preemptor, events, modes, body } = setup({ profile: 'brave' });
    modes.body(body.signals);
    modes.threats(1, [zombieAt(3)]);
    expect(preemptor.calls[0]!.steps[0]).toMatchObject({ type: 'attack_entity', args: { hits: 6 } });
    modes.body(body.set({ health: 3 })); // hit hard while fighting
    expect(preemptor.calls.map((c) => [c.steps[0]!.type, c.tier])).toEqual([['attack_entity', 1], ['flee', 2]]);
    preemptor.calls[0]!.settle('failed');
    // the swarm keeps coming: more flights than maxAttempts (4), never given up, and no fight at 3 health
    for (let n = 2; n <= 7; n += 1) {
      preemptor.calls.at(-1)!.settle();
      await modes.idle();
      await clock.advance(1_000);
      modes.threats(n, [zombieAt(3)]);
      modes.body(body.signals);
    }
    expect(preemptor.calls.slice(1).map((c) => c.steps[0]!.type)).toEqual(['flee', 'flee', 'flee', 'flee', 'flee', 'flee', 'flee']);
    expect(events.some((e) => e.type === 'gave_up')).toBe(false);
  });

  it('low health with a hostile near pillars up when it has blocks; flees from one in the flee band; eats first when it is farther or none is near', async () => {
    const run = async (patch: Partial<BodySignals>, threats: ReflexThreat[]) => {
      const { preemptor, modes, body } = setup({ auto: true });
      modes.threats(1, threats.map((t) => ({ ...t, distance: t.distance })));
      await modes.idle();
      const before = preemptor.calls.length;
      modes.body(body.set({ health: 6, food: 15, ...patch }));
      return preemptor.calls.slice(before).map((c) => c.steps[0]!.type);
    };
    // 8 blocks: outside the reflex band (6) but inside the danger radius (10)
    expect(await run({ scaffoldBlocks: 5 }, [zombieAt(8)])).toEqual(['pillar_up']);
    expect(await run({}, [zombieAt(5)])).toEqual(['flee']);
    // out of the flee band, more than a meal's time from reach (3 s at 2.5 blocks/s from 2 blocks): eat; sooner, or
    // with nothing to eat, run
    expect(await run({}, [zombieAt(10)])).toEqual(['consume_food']);
    expect(await run({}, [zombieAt(8)])).toEqual(['flee']);
    expect(await run({ hasFood: false }, [zombieAt(10)])).toEqual(['flee']);
    expect(await run({}, [])).toEqual(['consume_food']);
  });

  it('shelters: up a pillar, low health holds every plan step while the hostile below cannot reach it, until health is back, it can reach again, or shelterMs is spent', async () => {
    const { clock, preemptor, events, modes, body } = setup({ auto: true });
    // The zombie comes within reach of a hurt body with blocks: pillar up, holding every plan step, not caution ones only.
    // 8 blocks: inside the danger radius, outside the reflex's flee band
    modes.threats(1, [zombieAt(8)]);
    modes.body(body.set({ health: 5, food: 20, hasFood: false, scaffoldBlocks: 8 }));
    await modes.idle();
    expect(preemptor.calls.map((c) => [c.steps[0]?.type, c.holds])).toEqual([['pillar_up', 'all']]);
    // Up there the zombie cannot walk to the body: no second pillar, a hold renewed every half second instead.
    const holds = () => preemptor.calls.filter((c) => c.steps.length === 0);
    for (let tick = 2; tick <= 9; tick += 1) {
      await clock.advance(250);
      modes.threats(tick, [], [zombieAt(3)]);
      modes.body(body.signals);
    }
    await modes.idle();
    expect(preemptor.calls.filter((c) => c.steps.length > 0).map((c) => c.steps[0]!.type)).toEqual(['pillar_up']);
    expect(holds().length).toBe(4);
    expect(holds()[0]).toMatchObject({ reason: 'mode:low_health:shelter', holdMs: 1_000, holds: 'all', tier: 2 });
    expect(modes.status().sheltering).toBe(true);
    // Healed (natural regeneration up there): the shelter ends and nothing holds the plan any more.
    modes.body(body.set({ health: 12 }));
    await clock.advance(600);
    modes.threats(10, [], [zombieAt(3)]);
    expect(holds().length).toBe(4);
    expect(events.filter((e) => e.type === 'shelter').map((e) => e.type === 'shelter' && [e.edge, e.reason])).toEqual([
      ['rise', 'health 5 with a hostile near that cannot reach the body'],
      ['fall', 'health back'],
    ]);

    // Hurt again and sheltering: a hostile that can reach the body ends the shelter (low health's own fast path acts).
    modes.body(body.set({ health: 4 }));
    modes.threats(11, [], [zombieAt(3)]);
    expect(modes.status().sheltering).toBe(true);
    modes.threats(12, [zombieAt(9, 'skeleton')], [zombieAt(3)]);
    expect(modes.status().sheltering).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'shelter', edge: 'fall', reason: 'a hostile can reach the body' });
  });

  it('a shelter lasts shelterMs at most per engagement, and ends once health stops rising (nothing heals it); 0 never shelters', async () => {
    const clock = new ManualClock(1_000);
    const preemptor = new FakePreemptor('auto');
    const events: ModeEvent[] = [];
    // released only at 20: the body heals slowly the whole minute and is still low at its end
    const modes = createModes({ preemptor, config: { healthBelow: 19, healthReleaseAt: 20 }, now: () => clock.now(), onEvent: (e) => events.push(e) });
    const body = new FakeBody();
    for (let tick = 1; tick <= 130; tick += 1) {
      modes.body(body.set({ health: 5 + tick * 0.05, hasFood: false }));
      modes.threats(tick, [], [zombieAt(3)]);
      await clock.advance(500);
    }
    const holds = preemptor.calls.filter((c) => c.steps.length === 0);
    // one per 500 ms over 60 s, the last one cut to what is left: the plan is free 60 s after the rise
    expect(holds.length).toBe(120);
    expect(holds.slice(0, -1).every((c) => c.holdMs === 1_000)).toBe(true);
    expect(holds.at(-1)!.holdMs).toBe(500);
    expect(events.filter((e) => e.type === 'shelter').map((e) => e.type === 'shelter' && e.edge)).toEqual(['rise', 'fall']);
    expect(events.at(-1)).toMatchObject({ type: 'shelter', reason: 'held 60000 ms (shelterMs): the plan goes on' });
    expect(modes.status().sheltering).toBe(false);

    // Health that stops rising: 10 s later the shelter ends, and stays over until low health releases and comes back.
    const stalled = setup({ auto: true });
    stalled.modes.body(stalled.body.set({ health: 5, hasFood: false }));
    for (let tick = 1; tick <= 40; tick += 1) {
      if (tick <= 6) stalled.modes.body(stalled.body.set({ health: 5 + tick * 0.5 }));
      stalled.modes.threats(tick, [], [zombieAt(3)]);
      await stalled.clock.advance(500);
    }
    expect(stalled.events.filter((e) => e.type === 'shelter').map((e) => e.type === 'shelter' && [e.edge, e.reason, e.atMs])).toEqual([
      ['rise', 'health 5.5 with a hostile near that cannot reach the body', 1_000],
      ['fall', 'health 8 has not risen for 10000 ms: the plan goes on', 1_000 + 2_500 + 10_000],
    ]);

    const never = createModes({ preemptor, config: { shelterMs: 0 }, now: () => clock.now() });
    const before = preemptor.calls.length;
    never.body(body.signals);
    never.threats(1, [], [zombieAt(3)]);
    expect(preemptor.calls.length).toBe(before);
    // a hostile out of the danger radius, or lost, is nothing to shelter from
    const far = setup({ auto: true });
    far.modes.body(body.signals);
    far.modes.threats(1, [], [zombieAt(12), { ...zombieAt(3), visibility: 'lost' }]);
    expect(far.modes.status().sheltering).toBe(false);
  });

  it('eats to heal: hurt below eatToHealBelow with food under 18 (no natural regeneration), once no hostile could reach it mid-meal', async () => {
    const calls = async (patch: Partial<BodySignals>, threats: ReflexThreat[] = [], profile?: 'brave' | 'cautious') => {
      const { preemptor, modes, body, events } = setup({ auto: true, ...(profile ? { profile } : {}) });
      modes.threats(1, threats);
      await modes.idle();
      const before = preemptor.calls.length;
      modes.body(body.set(patch));
      await modes.idle();
      return { calls: preemptor.calls.slice(before).map((c) => [c.reason, c.tier]), events };
    };
    // 14 health, 17 food: vanilla heals nothing; the default (16) eats at the maintenance tier
    expect((await calls({ health: 14, food: 17 })).calls).toEqual([['mode:hunger:consume_food', 0]]);
    // fed enough to heal by itself, unhurt, or nothing to eat: no meal
    expect((await calls({ health: 14, food: 18 })).calls).toEqual([]);
    expect((await calls({ health: 20, food: 17 })).calls).toEqual([]);
    expect((await calls({ health: 14, food: 17, hasFood: false })).calls).toEqual([]);
    // the profile's threshold: brave (14) lets 14 be, cautious (18) eats at 17
    expect((await calls({ health: 14, food: 17 }, [], 'brave')).calls).toEqual([]);
    expect((await calls({ health: 17, food: 17 }, [], 'cautious')).calls).toEqual([['mode:hunger:consume_food', 0]]);
    // a zombie 8 blocks off reaches the body within the 3 s meal (2.4 s at 2.5 blocks/s from 2): the meal waits
    const danger = await calls({ health: 14, food: 17 }, [zombieAt(8)]);
    expect(danger.calls).toEqual([]);
    expect(danger.events).toContainEqual(expect.objectContaining({ type: 'deferred', mode: 'hunger', reason: 'danger' }));
    // …but hunger itself (food under foodBelow) eats whatever is near, as before
    expect((await calls({ health: 14, food: 5 }, [zombieAt(8)])).calls).toEqual([['mode:hunger:consume_food', 0]]);
    // farther than a meal's reach: it eats
    expect((await calls({ health: 14, food: 17 }, [zombieAt(12)])).calls).toEqual([['mode:hunger:consume_food', 0]]);
  });

  it('a hurt brave bot does not eat with a zombie a meal away beyond its small danger radius (6): it runs', async () => {
    const { preemptor, modes, body } = setup({ profile: 'brave', auto: true });
    // the trace of a death: health 8 → a meal with zombies 7.9 blocks off → 2 health when it ended
    modes.threats(1, [zombieAt(7.9)]);
    modes.body(body.set({ health: 4, food: 15 }));
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee']);
    const far = setup({ profile: 'brave', auto: true });
    far.modes.threats(1, [zombieAt(12)]);
    far.modes.body(far.body.set({ health: 4, food: 15 }));
    expect(far.preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['consume_food']);
  });

  it('low health with nothing to do (full food bar, nothing near) stalls: defense never fights a hurt bot, and the mode flees once a hostile is near', () => {
    const { preemptor, events, modes, body } = setup({ profile: 'brave' });
    modes.body(body.set({ health: 4, food: 20 }));
    expect(events.filter((e) => e.type === 'no_fast_path')).toMatchObject([{ mode: 'low_health', reason: 'no hostile near and nothing to eat' }]);
    // brave would fight a zombie at 3 blocks; hurt, the reflex waits instead
    modes.threats(1, [zombieAt(3)]);
    expect(preemptor.calls).toHaveLength(0);
    modes.body(body.signals);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee']);
    expect(events.filter((e) => e.type === 'no_fast_path')).toHaveLength(1);
  });

  it('health falling fast engages within the window even above the band', async () => {
    const { clock, preemptor, events, modes, body } = setup();
    modes.body(body.set({ health: 20, hasFood: true, food: 18 }));
    await clock.advance(500);
    modes.body(body.set({ health: 13 }));
    expect(events[0]).toMatchObject({ type: 'signal', mode: 'low_health', edge: 'rise', reason: 'health fell 7 within 2000 ms' });
    expect(preemptor.calls[0]!.steps[0]!.type).toBe('consume_food');
    await clock.advance(2_500);
    modes.body(body.signals);
    expect(events.filter((e) => e.type === 'signal').at(-1)).toMatchObject({ mode: 'low_health', edge: 'fall' });
  });

  it('nothing new fires while falling; hunger waits for defense', () => {
    const { preemptor, events, modes, body } = setup();
    modes.body(body.set({ inLava: true, falling: true }));
    expect(preemptor.calls).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: 'deferred', reason: 'falling' });
    modes.body(body.set({ inLava: false, falling: false }));
    modes.threats(1, [zombieAt(3)]);
    modes.body(body.set({ food: 3 }));
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee']);
  });

  it('profiles change the decision: brave fights a zombie at 3 blocks, the default flees', () => {
    const brave = setup({ profile: 'brave' });
    brave.modes.threats(1, [zombieAt(3)]);
    const plain = setup();
    plain.modes.threats(1, [zombieAt(3)]);
    expect(brave.preemptor.calls[0]!.steps[0]!.type).toBe('attack_entity');
    expect(plain.preemptor.calls[0]!.steps[0]!.type).toBe('flee');
  });

  it('a dig that ends before the hostile can reach the body finishes first; one that would be caught, or too long, does not', () => {
    const { preemptor, events, modes, body } = setup();
    // default reach 2 blocks at 2.5 blocks/s: a zombie at 5.5 blocks needs 1.4 s to hit
    modes.body(body.set({ digRemainingMs: 1_000 }));
    modes.threats(1, [zombieAt(5.5)]);
    modes.threats(2, [zombieAt(5.3)]);
    expect(preemptor.calls).toHaveLength(0);
    expect(events.filter((e) => e.type === 'deferred' && e.mode === 'defense' && e.reason === 'digging')).toHaveLength(1); // once per wait
    // closer than the dig's end allows: the reflex flees now
    modes.threats(3, [zombieAt(3.5)]);
    expect(preemptor.calls.map((c) => c.steps[0]?.type)).toEqual(['flee']);
    // a long dig (over protectDigMs) is never waited for, however far the zombie
    const long = setup();
    long.modes.body(long.body.set({ digRemainingMs: 3_500 }));
    long.modes.threats(1, [zombieAt(5.9)]);
    expect(long.preemptor.calls).toHaveLength(1);
    // not digging: as before
    const idle = setup();
    idle.modes.body(idle.body.signals);
    idle.modes.threats(1, [zombieAt(5.5)]);
    expect(idle.preemptor.calls).toHaveLength(1);
  });

  it('brave finishes a dig under one hostile\'s reach while healthy, not under two, nor hurt; cautious never', () => {
    const dig = (profile: 'brave' | 'cautious', health: number, threats: readonly ReflexThreat[]) => {
      const { preemptor, modes, body } = setup({ profile });
      modes.body(body.set({ health, digRemainingMs: 1_500 }));
      modes.threats(1, threats);
      return preemptor.calls.length;
    };
    // a zombie at 3 blocks hits within 0.4 s, before the dig's 1.5 s are up
    expect(dig('brave', 20, [zombieAt(3)])).toBe(0);
    expect(dig('brave', 14, [zombieAt(3)])).toBe(0);
    expect(dig('brave', 13, [zombieAt(3)])).toBe(1);
    expect(dig('brave', 20, [zombieAt(3), { ...zombieAt(4), trackId: 2 }])).toBe(1);
    // one within reach, another that cannot reach before the dig ends: still finished
    expect(dig('brave', 20, [zombieAt(3), { ...zombieAt(9), trackId: 2 }])).toBe(0);
    expect(dig('cautious', 20, [zombieAt(3)])).toBe(1);
  });

  it('ignores the hostile classes the config names', () => {
    const { preemptor, modes } = createModesWith({ ignoreClasses: ['skeleton'] });
    modes.threats(1, [zombieAt(3, 'skeleton')]);
    expect(preemptor.calls).toHaveLength(0);
  });

  it('a preemptor that throws is an error event, and the controller is free again', async () => {
    const events: ModeEvent[] = [];
    const modes = createModes({ preemptor: new FakePreemptor('throw'), onEvent: (e) => events.push(e) });
    modes.body({ ...new FakeBody().signals, inLava: true });
    await modes.idle();
    expect(events.find((e) => e.type === 'error')).toMatchObject({ mode: 'hazard_block', message: 'executor is gone' });
    expect(modes.status().controller).toBeUndefined();
  });
});

describe('hazard recall: each emergency ends once, preempted before damage, damaged first, or no damage', () => {
  const results = (events: readonly ModeEvent[]) => events.flatMap((e) => (e.type === 'emergency' ? [`${e.mode}:${e.result}`] : []));

  it('lava met by escape_fluid on its onset tick is recalled; the burn that follows is not counted again', () => {
    const { events, modes, body } = setup();
    modes.body(body.signals);
    modes.body(body.set({ inLava: true }));
    modes.body(body.set({ health: 16 }));
    modes.body(body.set({ health: 12 }));
    expect(results(events)).toEqual(['hazard_block:preempted_before_damage']);
  });

  it('lava while another fast path holds the controller: the burn comes first, and the later dispatch is not counted', async () => {
    const { preemptor, events, modes, body } = setup();
    modes.body(body.set({ eyesInWater: true, oxygen: 4 }));
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['escape_fluid']);
    modes.body(body.set({ eyesInWater: false, oxygen: 20, inLava: true })); // deferred: busy (the same tier)
    modes.body(body.set({ health: 16 }));
    const lava = () => results(events).filter((r) => r.startsWith('hazard_block'));
    expect(lava()).toEqual(['hazard_block:damaged_first']);
    preemptor.calls[0]!.settle();
    await flush();
    modes.body(body.signals);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['escape_fluid', 'escape_fluid']);
    expect(lava()).toEqual(['hazard_block:damaged_first']);
  });

  it('a health drop on the onset tick itself is the cause, not the damage; the next drop is', () => {
    const { events, modes, body } = setup();
    modes.body(body.set({ hasFood: false }));
    modes.body(body.set({ health: 4 })); // low_health rises on this drop; no fast path (nothing near, nothing to eat)
    modes.body(body.signals);
    expect(results(events)).toEqual([]);
    modes.body(body.set({ health: 3 }));
    expect(results(events)).toEqual(['low_health:damaged_first']);
  });

  it('neither within the window, or a release first, ends no_damage at the window end', async () => {
    const { clock, events, modes, body } = setup();
    modes.body(body.set({ hasFood: false, health: 5 }));
    await clock.advance(modes.config.emergencyWindowMs + 1);
    modes.body(body.signals);
    const onset = events.find((e) => e.type === 'signal')!.atMs;
    expect(events.filter((e) => e.type === 'emergency')).toEqual([{ type: 'emergency', mode: 'low_health', result: 'no_damage', atMs: onset + modes.config.emergencyWindowMs, onsetMs: onset }]);
    modes.body(body.set({ health: 20, falling: true, inLava: true })); // falling: nothing new fires…
    modes.body(body.set({ falling: false, inLava: false })); // …and out of the lava before anything hit
    expect(results(events)).toEqual(['low_health:no_damage', 'hazard_block:no_damage']);
  });

  it('a zombie closing in is met by the reflex before it hits', () => {
    const { events, modes, body } = setup();
    modes.body(body.signals);
    modes.threats(1, [zombieAt(4)]);
    modes.body(body.set({ health: 17 }));
    expect(results(events)).toEqual(['defense:preempted_before_damage']);
  });
});

function createModesWith(config: Parameters<typeof createModes>[0]['config']) {
  const preemptor = new FakePreemptor();
  return { preemptor, modes: createModes({ preemptor, config }) };
}
