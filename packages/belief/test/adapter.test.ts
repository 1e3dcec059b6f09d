import { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { createExecutorMetrics } from '@sinew/bt-runtime';
import { createBeliefBus, createReflex, StreamMessageSchema, type BeliefError, type EvidenceBatch, type Reflex, type StreamMessage } from '@sinew/belief';
import { attachBelief, attachModes, evidenceFromBot, type BotLike, type EntityLike, type Scheduler, type TickEvent } from '@sinew/belief/mineflayer';
import { FakePreemptor } from './fake-preemptor.js';

/** A small fake body: a mutable entity table and a self entity, as mineflayer keeps them. */
function fakeBot(entities: EntityLike[]): BotLike & { entities: Record<string, EntityLike> } {
  const self: EntityLike = { id: 1, type: 'player', name: 'player', position: { x: 0.5, y: 64, z: 0.5 } };
  const table: Record<string, EntityLike> = { '1': self };
  for (const e of entities) table[String(e.id)] = e;
  return { entity: self, entities: table };
}

const mob = (id: number, name: string, x: number, z: number, type = 'hostile'): EntityLike => ({
  id,
  name,
  type,
  position: { x, y: 64, z },
});

/** A fake interval scheduler driven by hand, with its own millisecond clock. */
class FakeScheduler implements Scheduler {
  nowMs = 0;
  private timers = new Map<number, { callback: () => void; ms: number; next: number }>();
  private nextHandle = 1;
  setInterval(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { callback, ms, next: this.nowMs + ms });
    return handle;
  }
  clearInterval(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  get active(): number {
    return this.timers.size;
  }
  advance(ms: number, onStep?: (nowMs: number) => void): void {
    const end = this.nowMs + ms;
    for (;;) {
      const due = [...this.timers.values()].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.nowMs = due.next;
      due.next += due.ms;
      onStep?.(this.nowMs);
      due.callback();
    }
    this.nowMs = end;
  }
}

describe('mineflayer evidence builder', () => {
  it('a real mineflayer Bot type is accepted (compile-time)', () => {
    const accepts = (bot: Bot) => evidenceFromBot(bot);
    expect(typeof accepts).toBe('function');
  });

  it('builds plain evidence whose ingest is identical regardless of entity insertion order', () => {
    const entities = [
      mob(7, 'zombie', 4, 4),
      mob(3, 'cow', -3, 2, 'passive'),
      mob(9, 'creeper', 4, -8),
      mob(5, 'item', 1, 1, 'object'),
      mob(11, 'skeleton', 60, 0),
      { id: 12, name: 'pillager', type: 'mob', position: { x: 2, y: 64, z: 2 } },
    ];
    const a = evidenceFromBot(fakeBot(entities), { hostileNames: ['pillager'] })!;
    const b = evidenceFromBot(fakeBot([...entities].reverse()), { hostileNames: ['pillager'] })!;
    expect(a.items.map((i) => [i.cls, i.hostile, i.hint])).toEqual([
      ['cow', false, '3'],
      ['zombie', true, '7'],
      ['creeper', true, '9'],
      ['pillager', true, '12'],
    ]);
    expect(Object.keys(a.items[0]!).sort()).toEqual(['cls', 'hint', 'hostile', 'position']);
    // the bus sorts canonically on ingest (the one sort path): any item order gives the same bytes
    const ingest = (batch: EvidenceBatch) => {
      const bus = createBeliefBus({ emitEveryTicks: 1 });
      const messages = [1, 2].flatMap((tick) => {
        const r = bus.ingest(tick, batch);
        return r.ok ? r.messages : [];
      });
      return JSON.stringify([messages, bus.tracks(), bus.stateHash()]);
    };
    expect(ingest({ ...b, items: [...b.items].reverse() })).toBe(ingest(a));
  });

  it('leaves out entities the Sinew plugin saw die: a corpse in the entity table is no threat', () => {
    const zombie: EntityLike = { id: 7, type: 'hostile', name: 'zombie', position: { x: 2, y: 64, z: 0 } };
    const bot = fakeBot([zombie]);
    expect(evidenceFromBot(bot)!.items.map((i) => i.cls)).toEqual(['zombie']);
    expect(evidenceFromBot({ ...bot, sinew: { deadEntities: new Map([[7, { at: 0 }]]) } })!.items).toEqual([]);
  });

  it('yields nothing before the bot has spawned', () => {
    expect(evidenceFromBot({ entity: null, entities: {} })).toBeUndefined();
  });
});

describe('attachBelief', () => {
  it('ingests at 5 Hz and emits at 1 Hz by default on an injected scheduler, and stops cleanly', () => {
    const scheduler = new FakeScheduler();
    const bot = fakeBot([mob(7, 'zombie', 20, 0), mob(3, 'cow', -5, 2, 'passive')]);
    const adapter = attachBelief(bot, { scheduler });
    const ticks: number[] = [];
    const messages: StreamMessage[] = [];
    adapter.on('tick', (t) => ticks.push(t.tickId));
    adapter.on('message', (m) => messages.push(m));
    adapter.start();
    adapter.start();
    expect(scheduler.active).toBe(1);
    let x = 20;
    scheduler.advance(3000, () => {
      x -= 1;
      bot.entities['7'] = mob(7, 'zombie', x, 0);
    });
    expect(ticks).toHaveLength(15);
    expect(messages[0]!.kind).toBe('snapshot');
    expect(new Set(messages.map((m) => m.tickId))).toEqual(new Set([1, 6, 11]));
    for (const m of messages) expect(StreamMessageSchema.safeParse(m).success).toBe(true);
    adapter.stop();
    expect(scheduler.active).toBe(0);
    scheduler.advance(1000);
    expect(ticks).toHaveLength(15);
  });

  it('exports tracks, deltas by type and ingest time in the injected registry', async () => {
    const registry = new Registry();
    const bot = fakeBot([mob(7, 'zombie', 20, 0), mob(3, 'cow', -5, 2, 'passive')]);
    let fakeSeconds = 0;
    const adapter = attachBelief(bot, { registry, scheduler: new FakeScheduler(), now: () => (fakeSeconds += 0.0001) });
    for (let i = 0; i < 12; i += 1) {
      bot.entities['7'] = mob(7, 'zombie', Math.max(3, 20 - i * 2), 0);
      adapter.tick();
    }
    const text = await registry.metrics();
    expect(text).toContain('sinew_belief_tracks{visibility="visible"} 2');
    expect(text).toMatch(/sinew_belief_deltas_total\{type="new_threat"\} 1/);
    expect(text).toContain('sinew_belief_ingest_seconds_count 12');
    expect(text).toMatch(/sinew_belief_ingest_seconds_bucket\{le="0.0002"\} 12/);
    // a second adapter on the same registry reuses the metrics instead of throwing
    expect(() => attachBelief(bot, { registry })).not.toThrow();
  });

  it("puts the belief metrics on the executor's registry (what /metrics serves) when attached to an executor, every series at 0 first", async () => {
    const executor = { metrics: createExecutorMetrics() };
    const bot = fakeBot([mob(7, 'zombie', 20, 0)]);
    const adapter = attachBelief(bot, { executor, scheduler: new FakeScheduler() });
    expect(adapter.registry).toBe(executor.metrics.registry);
    const before = await executor.metrics.registry.metrics();
    expect(before).toContain('sinew_belief_deltas_total{type="new_threat"} 0');
    expect(before).toContain('sinew_belief_tracks{visibility="visible"} 0');
    expect(before.match(/^sinew_hazard_emergencies_total\{.*\} 0$/gm)).toHaveLength(12); // 4 modes × 3 results
    adapter.tick();
    const after = await executor.metrics.registry.metrics();
    expect(after).toContain('sinew_belief_tracks{visibility="visible"} 1');
    expect(after).toContain('sinew_belief_ingest_seconds_count 1');
  });

  it("counts hazard emergencies on the executor's registry when the modes preempt an executor and no belief is given", () => {
    const executor = Object.assign(new FakePreemptor(), { metrics: createExecutorMetrics() });
    const modes = attachModes(new EventEmitter() as unknown as Bot, { preemptor: executor });
    const series = executor.metrics.registry.getSingleMetric('sinew_hazard_emergencies_total');
    expect(series).toBeDefined();
    modes.detach();
  });

  it('builds track views and hazards only for readers: none without a tick listener or reflex', () => {
    const registry = new Registry();
    const bot = fakeBot([mob(7, 'zombie', 5, 0), mob(3, 'cow', -5, 2, 'passive'), mob(4, 'pig', 6, 6, 'passive')]);
    const adapter = attachBelief(bot, { registry, scheduler: new FakeScheduler() });
    const tracks = vi.spyOn(adapter.bus, 'tracks');
    const threats = vi.spyOn(adapter.bus, 'threats');
    const hazards = vi.spyOn(adapter.bus, 'hazards');
    for (let i = 0; i < 5; i += 1) adapter.tick();
    expect([tracks.mock.calls.length, threats.mock.calls.length, hazards.mock.calls.length]).toEqual([0, 0, 0]);
    const seen: TickEvent[] = [];
    adapter.on('tick', (t) => seen.push(t));
    adapter.tick();
    expect([tracks.mock.calls.length, threats.mock.calls.length, hazards.mock.calls.length]).toEqual([0, 1, 1]);
    expect(seen[0]!.threats.map((t) => t.cls)).toEqual(['zombie']);
    expect(seen[0]!.hazards.regions.length).toBeGreaterThan(0);
  });

  it('counts tracks by visibility without building views', async () => {
    const registry = new Registry();
    const bot = fakeBot([mob(7, 'zombie', 5, 0), mob(3, 'cow', -5, 2, 'passive')]);
    const adapter = attachBelief(bot, { registry, scheduler: new FakeScheduler(), bus: { lostAfterTicks: 3, forgetAfterTicks: 50 } });
    adapter.tick();
    delete bot.entities['3'];
    adapter.tick();
    expect(await registry.metrics()).toMatch(/visibility="visible"} 1\n.*visibility="inferred"} 1\n.*visibility="lost"} 0/);
    for (let i = 0; i < 3; i += 1) adapter.tick();
    expect(await registry.metrics()).toMatch(/visibility="visible"} 1\n.*visibility="inferred"} 0\n.*visibility="lost"} 1/);
    expect(adapter.bus.visibilityCounts()).toEqual({ visible: 1, inferred: 0, lost: 1 });
  });

  it('§9 pivot 1: the reflex reads every 200 ms tick and preempts < 250 ms after a hostile closes in', () => {
    const scheduler = new FakeScheduler();
    const preemptor = new FakePreemptor('manual');
    const bot = fakeBot([mob(7, 'zombie', 14, 0)]);
    const adapter = attachBelief(bot, { scheduler, reflex: createReflex({ preemptor }) });
    const tickTimes: number[] = [];
    let calledAt: number | undefined;
    adapter.on('tick', () => {
      tickTimes.push(scheduler.nowMs);
      // tick listeners run after the reflex within the same tick
      if (calledAt === undefined && preemptor.calls.length > 0) calledAt = scheduler.nowMs;
    });
    adapter.start();
    scheduler.advance(1200); // ticks 1–6; emissions (1 Hz) at ticks 1, 6, 11
    expect(preemptor.calls).toHaveLength(0);
    const closedAt = scheduler.nowMs + 30; // the zombie lunges between two ticks, not right before an emission
    scheduler.advance(1000, (nowMs) => {
      if (nowMs >= closedAt) bot.entities['7'] = mob(7, 'zombie', 3, 0);
    });
    // the call happened inside the first tick at or after the lunge (tick 7), not at the next emission
    const firstTickAfter = tickTimes.find((t) => t >= closedAt)!;
    expect(preemptor.calls).toHaveLength(1);
    expect(calledAt).toBe(firstTickAfter);
    expect(calledAt! - closedAt).toBeLessThan(250);
    expect(tickTimes.slice(1).map((t, i) => t - tickTimes[i]!)).toEqual(tickTimes.slice(1).map(() => 200));
    expect(preemptor.calls[0]!.steps[0]!.type).toBe('flee');
    adapter.stop();
  });

  it('§9 pivot 5: only versioned stream messages leave the adapter', () => {
    const bot = fakeBot([mob(7, 'zombie', 5, 0), mob(3, 'cow', -5, 2, 'passive')]);
    const adapter = attachBelief(bot, { scheduler: new FakeScheduler() });
    const out: unknown[] = [];
    adapter.on('message', (m) => out.push(m));
    for (let i = 0; i < 12; i += 1) adapter.tick();
    expect(out.length).toBeGreaterThan(0);
    for (const m of out) {
      // strict schemas: an extra field (a raw entity, an id, a float position) fails the parse
      expect(StreamMessageSchema.safeParse(m).success).toBe(true);
      expect(JSON.stringify(m)).not.toMatch(/"position"|"hint"|"entity"/);
    }
    const tampered = { ...(out[0] as object), rawEntity: bot.entities['7'] };
    expect(StreamMessageSchema.safeParse(tampered).success).toBe(false);
    // The tripwire (no other source reads bot.entities), over every package: tripwire.test.ts.
  });

  it('a bot that has not spawned is skipped without ticking', () => {
    const adapter = attachBelief({ entity: null, entities: {} }, { scheduler: new FakeScheduler() });
    let ticks = 0;
    adapter.on('tick', () => (ticks += 1));
    adapter.tick();
    expect(ticks).toBe(0);
    expect(adapter.bus.lastTickId).toBeUndefined();
  });
  it('a throwing listener is an error event: the other listeners, the reflex and the cadence keep running', () => {
    const scheduler = new FakeScheduler();
    const preemptor = new FakePreemptor('manual');
    const bot = fakeBot([mob(7, 'zombie', 3, 0)]);
    const reflex = createReflex({
      preemptor,
      onEvent: () => {
        throw new Error('reflex listener bug');
      },
    });
    const adapter = attachBelief(bot, { scheduler, reflex });
    const ticks: number[] = [];
    const messages: number[] = [];
    const errors: BeliefError[] = [];
    adapter.on('tick', () => {
      throw new Error('tick listener bug');
    });
    adapter.on('tick', (t) => ticks.push(t.tickId));
    adapter.on('message', () => {
      throw new Error('message listener bug');
    });
    adapter.on('message', (m) => messages.push(m.tickId));
    adapter.on('error', (e) => errors.push(e));
    adapter.on('error', () => {
      throw new Error('error listener bug'); // dropped, never reported to itself again
    });
    adapter.start();
    expect(() => scheduler.advance(1000)).not.toThrow();
    expect(ticks).toEqual([1, 2, 3, 4, 5]);
    expect(messages).toEqual([1]);
    expect(preemptor.calls).toHaveLength(1);
    expect(reflex.status().listenerErrors).toBe(2);
    expect(errors).toHaveLength(6); // 5 tick + 1 message
    expect(errors[0]).toMatchObject({ code: 'listener_error', issues: [{ path: ['message'], message: 'message listener bug' }] });
    expect(errors[1]).toMatchObject({ code: 'listener_error', issues: [{ path: ['tick'], message: 'tick listener bug' }] });
    adapter.stop();
  });

  it('a reflex that throws is an error event and the tick still emits', () => {
    const throwingReflex: Reflex = {
      ...createReflex({ preemptor: new FakePreemptor() }),
      tick: () => {
        throw new Error('reflex bug');
      },
    };
    const adapter = attachBelief(fakeBot([mob(7, 'zombie', 3, 0)]), { scheduler: new FakeScheduler(), reflex: throwingReflex });
    const errors: BeliefError[] = [];
    const ticks: number[] = [];
    adapter.on('error', (e) => errors.push(e));
    adapter.on('tick', (t) => ticks.push(t.tickId));
    expect(() => adapter.tick()).not.toThrow();
    expect(ticks).toEqual([1]);
    expect(errors).toMatchObject([{ code: 'listener_error', issues: [{ path: ['reflex'], message: 'reflex bug' }] }]);
  });
});
