import { describe, expect, it } from 'vitest';
import { BeliefConfigError, createReflex, type ReflexEvent, type ReflexThreat } from '@sinew/belief';
import { FakePreemptor, flush } from './fake-preemptor.js';

const zombieAt = (distance: number, trackId = 1): ReflexThreat => ({
  trackId,
  cls: 'zombie',
  hostile: true,
  visibility: 'visible',
  predicted: { x: distance, y: 64, z: 0 },
  distance,
});

describe('reflex', () => {
  it('rejects a config whose release band is not beyond its trigger band', () => {
    expect(() => createReflex({ preemptor: new FakePreemptor(), config: { fleeWithinBlocks: 8, releaseBeyondBlocks: 6 } })).toThrow(
      BeliefConfigError,
    );
  });

  it('ignores threats outside the band, passive tracks and lost tracks', () => {
    const preemptor = new FakePreemptor();
    const reflex = createReflex({ preemptor });
    expect(reflex.tick(1, [zombieAt(9)])).toBe('idle');
    expect(reflex.tick(2, [{ ...zombieAt(3), hostile: false }])).toBe('idle');
    expect(reflex.tick(3, [{ ...zombieAt(3), visibility: 'lost' }])).toBe('idle');
    expect(preemptor.calls).toHaveLength(0);
    expect(reflex.inControl()).toBe(false);
  });

  it('preempts with flee away from the threat the tick it enters the band', async () => {
    const preemptor = new FakePreemptor('auto');
    const events: ReflexEvent[] = [];
    const reflex = createReflex({ preemptor, onEvent: (e) => events.push(e) });
    expect(reflex.tick(1, [zombieAt(5)])).toBe('preempting');
    expect(preemptor.calls).toHaveLength(1);
    const step = preemptor.calls[0]!.steps[0]!;
    expect(step).toMatchObject({ type: 'flee', args: { from: { x: 5, y: 64, z: 0 }, entity: 'zombie', distance: 12 } });
    await reflex.idle();
    expect(events.map((e) => e.type)).toEqual(['engaged', 'preempt', 'outcome']);
    expect(events[1]).toMatchObject({ type: 'preempt', trackId: 1, distance: 5 });
  });

  it('passes a bounded preemption reason (verb and class, never the distance): the executor labels metrics with it', async () => {
    const preemptor = new FakePreemptor('auto');
    const reflex = createReflex({ preemptor, config: { holdTicks: 1 } });
    for (const [tick, distance] of [[1, 5], [3, 4.3], [5, 3.7], [7, 1]] as const) {
      reflex.tick(tick, [zombieAt(distance)]);
      await reflex.idle();
    }
    expect(preemptor.calls.map((c) => c.reason)).toEqual([
      'reflex:flee:zombie',
      'reflex:flee:zombie',
      'reflex:flee:zombie',
      'reflex:attack_entity:zombie',
    ]);
  });

  it('fights with attack_entity when the threat is already inside the attack band (cornered)', () => {
    const preemptor = new FakePreemptor('auto');
    const reflex = createReflex({ preemptor });
    reflex.tick(1, [zombieAt(1)]);
    expect(preemptor.calls[0]!.steps[0]).toMatchObject({ type: 'attack_entity', args: { entity: 'zombie', maxDistance: 6 } });
  });

  it('a fight keeps its target across bursts by the engine id while it is seen within reach, then takes the nearest', async () => {
    const preemptor = new FakePreemptor('auto');
    const reflex = createReflex({ preemptor, config: { holdTicks: 1, maxFleesBeforeFight: 0 } });
    const first = { ...zombieAt(1.2, 4), hint: '311' };
    reflex.tick(1, [first, { ...zombieAt(2.5, 9), hint: '87' }]);
    await reflex.idle();
    // knocked back by the burst, the first is now farther than the second: the next burst still aims at it
    reflex.tick(3, [{ ...zombieAt(2.1, 9), hint: '87' }, { ...first, distance: 2.8 }]);
    await reflex.idle();
    // unseen (kept up by prediction), or out of the body's reach (3 blocks): the nearest instead
    reflex.tick(5, [{ ...zombieAt(1.9, 9), hint: '87' }, { ...first, distance: 3.4, visibility: 'inferred' }]);
    await reflex.idle();
    reflex.tick(7, [{ ...zombieAt(1.9, 12), hint: 'not-a-number' }, { ...zombieAt(3.2, 9), hint: '87' }]);
    expect(preemptor.calls.map((c) => c.steps[0]!.args)).toEqual([
      { entityId: 311, maxDistance: 6, hits: 6, keepAway: 2 },
      { entityId: 311, maxDistance: 6, hits: 6, keepAway: 2 },
      { entityId: 87, maxDistance: 6, hits: 6, keepAway: 2 },
      { entity: 'zombie', maxDistance: 6, hits: 6, keepAway: 2 },
    ]);
  });

  it('a nearer track kept up by prediction (a corpse) does not hold a fight back from a zombie seen coming', () => {
    const preemptor = new FakePreemptor('auto');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 0 } });
    expect(reflex.tick(1, [{ ...zombieAt(1.4, 3), visibility: 'inferred', hint: '40' }, { ...zombieAt(3.8, 5), hint: '41' }])).toBe('preempting');
    expect(preemptor.calls[0]!.steps[0]!.args).toMatchObject({ entityId: 41 });
    // cornered by one still beyond the attack's distance (cautious flees from 8, attacks within 6): the fight waits for it
    const early = createReflex({ preemptor: new FakePreemptor('auto'), config: { maxFleesBeforeFight: 0, fleeWithinBlocks: 8, releaseBeyondBlocks: 14 } });
    expect(early.tick(1, [zombieAt(7)])).toBe('holding');
    expect(early.tick(2, [zombieAt(5.5)])).toBe('preempting');
    // nothing seen in band: the fight waits
    const alone = createReflex({ preemptor: new FakePreemptor('auto'), config: { maxFleesBeforeFight: 0 } });
    expect(alone.tick(1, [{ ...zombieAt(1.4, 3), visibility: 'inferred' }])).toBe('holding');
  });

  it('holds control for holdTicks and until the threat is beyond the reset band', async () => {
    const preemptor = new FakePreemptor('auto');
    const reflex = createReflex({ preemptor, config: { holdTicks: 10 } });
    reflex.tick(1, [zombieAt(5)]);
    await reflex.idle();
    expect(reflex.tick(2, [zombieAt(15)])).toBe('holding'); // far, but the hold runs to tick 11
    expect(reflex.inControl()).toBe(true);
    expect(reflex.tick(11, [zombieAt(8)])).toBe('holding'); // between bands: still holding
    expect(reflex.tick(12, [zombieAt(11)])).toBe('released');
    expect(reflex.inControl()).toBe(false);
    expect(preemptor.calls).toHaveLength(1);
  });

  it('a slow executor is never preempted twice at once; in-band ticks meanwhile are counted as busy', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor });
    reflex.tick(1, [zombieAt(5)]);
    for (let tick = 2; tick <= 6; tick += 1) expect(reflex.tick(tick, [zombieAt(4)])).toBe('busy');
    expect(preemptor.calls).toHaveLength(1);
    expect(reflex.status().busyTicks).toBe(5);
    preemptor.calls[0]!.settle();
    await flush();
    expect(reflex.tick(7, [zombieAt(4)])).toBe('preempting');
    expect(preemptor.calls).toHaveLength(2);
    expect(preemptor.maxConcurrent).toBe(1);
  });

  it('after a failed flee the bot counts as cornered and fights', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 2 } });
    reflex.tick(1, [zombieAt(5)]);
    preemptor.calls[0]!.settle('failed');
    await flush();
    reflex.tick(2, [zombieAt(5)]);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee', 'attack_entity']);
  });

  it('after maxFleesBeforeFight successful flees in one engagement the bot counts as cornered and fights', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 2 } });
    for (let tick = 1; tick <= 2; tick += 1) {
      expect(reflex.tick(tick, [zombieAt(5)])).toBe('preempting');
      preemptor.calls[tick - 1]!.settle('succeeded');
      await flush();
    }
    expect(reflex.tick(3, [zombieAt(5)])).toBe('preempting');
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee', 'flee', 'attack_entity']);
    expect(reflex.status()).toMatchObject({ flees: 2, attacks: 1 });
  });

  it('counts flees from one threat across engagements: it is back each time the bot returns, so the bot fights it; another threat starts over', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 2, holdTicks: 1 } });
    let tick = 0;
    // engage, flee (succeeds), then the threat is beyond the reset band and control is released
    const fleeAndRelease = async (trackId: number) => {
      expect(reflex.tick((tick += 1), [zombieAt(5, trackId)])).toBe('preempting');
      preemptor.calls.at(-1)!.settle('succeeded');
      await flush();
      expect(reflex.tick((tick += 5), [zombieAt(20, trackId)])).toBe('released');
    };
    await fleeAndRelease(1);
    await fleeAndRelease(1);
    expect(reflex.tick((tick += 1), [zombieAt(5, 1)])).toBe('preempting');
    preemptor.calls.at(-1)!.settle('succeeded');
    await flush();
    reflex.tick((tick += 5), [zombieAt(20, 1)]);
    await fleeAndRelease(2);
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee', 'flee', 'attack_entity', 'flee']);
  });

  it('a pack that follows counts whole: each flee counts for every hostile in the reset band, so a new nearest one is fought', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 2, holdTicks: 1 } });
    // the pack: 1 leads, 2 and 3 behind it; each flee outruns all three, and on the way back a different one leads
    const waves = [
      [zombieAt(5.5, 1), zombieAt(7, 2), zombieAt(9.5, 3)],
      [zombieAt(4, 2), zombieAt(6.5, 3)],
      [zombieAt(5, 3)],
    ];
    let tick = 0;
    for (const wave of waves) {
      expect(reflex.tick((tick += 1), wave)).toBe('preempting');
      preemptor.calls.at(-1)!.settle('succeeded');
      await flush();
      expect(reflex.tick((tick += 5), wave.map((t) => ({ ...t, distance: 20 })))).toBe('released');
    }
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee', 'flee', 'attack_entity']);
  });

  it('once a fight began, the engagement fights on: the pack\'s next mob in the flee band is fought, not fled from', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 3, holdTicks: 1 } });
    expect(reflex.tick(1, [zombieAt(1.2, 1), zombieAt(4, 2)])).toBe('preempting');
    preemptor.calls.at(-1)!.settle('succeeded');
    await flush();
    expect(reflex.tick(2, [zombieAt(4, 2)])).toBe('preempting');
    preemptor.calls.at(-1)!.settle('succeeded');
    await flush();
    // released (nothing within the reset band), the next engagement starts by fleeing again
    expect(reflex.tick(8, [])).toBe('released');
    expect(reflex.tick(9, [zombieAt(5, 3)])).toBe('preempting');
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['attack_entity', 'attack_entity', 'flee']);
  });

  it('flees from several threats within one engagement count together: a swarm that never lets control go corners the bot', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 2 } });
    for (const [tick, trackId] of [[1, 1], [2, 2], [3, 1]] as const) {
      expect(reflex.tick(tick, [zombieAt(5, trackId), zombieAt(7, trackId === 1 ? 2 : 1)])).toBe('preempting');
      preemptor.calls.at(-1)!.settle('succeeded');
      await flush();
    }
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee', 'flee', 'attack_entity']);
  });

  it('a cornered bot fights only a threat it sees: a predicted (inferred) track in band waits instead', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor, config: { maxFleesBeforeFight: 0 } });
    expect(reflex.tick(1, [{ ...zombieAt(3), visibility: 'inferred' }])).toBe('holding');
    expect(preemptor.calls).toHaveLength(0);
    expect(reflex.tick(2, [zombieAt(3)])).toBe('preempting');
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['attack_entity']);
  });

  it('a failing or throwing preemptor is an error event, not a crash, and the reflex recovers', async () => {
    const events: ReflexEvent[] = [];
    const rejecting = new FakePreemptor('manual');
    const reflex = createReflex({ preemptor: rejecting, onEvent: (e) => events.push(e) });
    reflex.tick(1, [zombieAt(5)]);
    rejecting.calls[0]!.fail('executor busy');
    await reflex.idle();
    expect(reflex.status().errors).toBe(1);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ message: 'executor busy' });
    const throwing = createReflex({ preemptor: new FakePreemptor('throw') });
    expect(throwing.tick(1, [zombieAt(5)])).toBe('preempting');
    await throwing.idle();
    expect(throwing.status().errors).toBe(1);
    expect(throwing.tick(2, [zombieAt(5)])).toBe('preempting');
  });
  it('a throwing onEvent never escapes tick() nor rejects idle(); the reflex keeps preempting', async () => {
    const preemptor = new FakePreemptor('manual');
    const reflex = createReflex({
      preemptor,
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(reflex.tick(1, [zombieAt(5)])).toBe('preempting'); // 'engaged' and 'preempt' both throw
    expect(preemptor.calls).toHaveLength(1);
    preemptor.calls[0]!.settle(); // 'outcome' throws inside the in-flight promise
    await expect(reflex.idle()).resolves.toBeUndefined();
    expect(reflex.tick(2, [zombieAt(5)])).toBe('preempting');
    preemptor.calls[1]!.fail('executor busy'); // so does 'error'
    await expect(reflex.idle()).resolves.toBeUndefined();
    expect(reflex.status()).toMatchObject({ preempts: 2, errors: 1, listenerErrors: 5 });
    expect(preemptor.calls.map((c) => c.steps[0]!.type)).toEqual(['flee', 'flee']);
  });
});
