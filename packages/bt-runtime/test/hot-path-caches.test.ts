// The executor's per-step caches (the last capability's ref, label, series and limits; the body's lone actuate
// listener) answer for the capability and listener of *this* step, however steps and subscriptions alternate.
import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics, createMemoryProvenance, instrumentMethods, leasedView, type ActuatorCommand, type ActuatorLease } from '../src/index.js';
import { craftItem, defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

/** Acts only when the body has logs to spare: never in these tests, so its TTFA watchdog trips. */
const stall = (name: string) =>
  defineFake({
    name,
    version: '0.3.1',
    description: 'waits for a log that never comes',
    inputSchema: z.object({}),
    run: async (ctx) => {
      while (!ctx.signal.aborted && (ctx.body.inventory.log ?? 0) < 99) await ctx.sleep(40);
    },
    acceptance: () => accepted,
  });

function setup() {
  const clock = new ManualClock(1_700_000_000_123);
  const metrics = createExecutorMetrics();
  const provenance = createMemoryProvenance();
  const registry = registryWith(digBlock, craftItem, stall('stall_a'), stall('stall_b'));
  const policy = { maxLocalRetries: 0, ttfaMs: 700, capabilities: { stall_a: { ttfaMs: 90 } } };
  const executor = createExecutor({ registry, body: fakeBody(), clock, metrics, provenance, policy });
  return { clock, metrics, provenance, executor };
}

describe('per-step caches across alternating capabilities', () => {
  it('counts, times and records every step under its own capability', async () => {
    const { executor, metrics, provenance } = setup();
    const steps = [
      { stepId: 'd1', type: 'dig_block', args: { block: 'log_2' } },
      { stepId: 'c1', type: 'craft_item', args: { item: 'planks' } },
      { stepId: 'd2', type: 'dig_block', args: { block: 'log_3' } },
      { stepId: 'c2', type: 'craft_item', args: { item: 'stick' } },
      { stepId: 'd3', type: 'dig_block', args: { block: 'log_1' } },
    ];
    const outcome = await executor.run({ planId: 'mixed-7', intentId: 'wood', steps });
    expect(outcome.status).toBe('completed');
    expect(outcome.steps.map((s) => `${s.stepId}:${s.capability?.name}@${s.capability?.version}`)).toEqual(['d1:dig_block@1.0.0', 'c1:craft_item@1.0.0', 'd2:dig_block@1.0.0', 'c2:craft_item@1.0.0', 'd3:dig_block@1.0.0']);
    expect(provenance.records().map((r) => `${r.stepId}:${r.capability}`)).toEqual(['d1:dig_block@1.0.0', 'c1:craft_item@1.0.0', 'd2:dig_block@1.0.0', 'c2:craft_item@1.0.0', 'd3:dig_block@1.0.0']);
    const r = metrics.registry;
    expect(await metric(r, 'sinew_steps_total', { capability: 'dig_block', outcome: 'succeeded' })).toBe(3);
    expect(await metric(r, 'sinew_steps_total', { capability: 'craft_item', outcome: 'succeeded' })).toBe(2);
    expect(await metric(r, 'sinew_step_ttfa_seconds_count', { capability: 'dig_block' })).toBe(3);
    expect(await metric(r, 'sinew_step_ttfa_seconds_count', { capability: 'craft_item' })).toBe(2);
    expect(await metric(r, 'sinew_step_duration_seconds_count', { capability: 'craft_item', outcome: 'succeeded' })).toBe(2);
  });

  it('a failure between successes of one capability is counted as a failure, the next success as a success', async () => {
    const { executor, metrics } = setup();
    const ran = [];
    for (const [i, block] of ['log_1', 'no_such_log', 'log_2'].entries()) {
      ran.push((await executor.run({ planId: `p${i}`, intentId: 'wood', steps: [{ stepId: 's', type: 'dig_block', args: { block } }] })).status);
    }
    expect(ran).toEqual(['completed', 'failed', 'completed']);
    const r = metrics.registry;
    expect(await metric(r, 'sinew_steps_total', { capability: 'dig_block', outcome: 'succeeded' })).toBe(2);
    expect(await metric(r, 'sinew_steps_total', { capability: 'dig_block', outcome: 'failed', code: 'guard_failed' })).toBe(1);
  });

  it("each capability's attempt runs under its own TTFA limit, in either order", async () => {
    const { executor, clock } = setup();
    const reasons: string[] = [];
    for (const type of ['stall_a', 'stall_b', 'stall_b', 'stall_a']) {
      const running = executor.run({ planId: `${type}-${reasons.length}`, intentId: 'i', steps: [{ stepId: 'only', type, args: {} }] });
      await clock.advance(1_000);
      const outcome = await running;
      reasons.push(`${type}: ${outcome.failure?.code} ${outcome.failure?.reason}`);
    }
    expect(reasons).toEqual([
      'stall_a: ttfa_exceeded no actuator command within 90 ms of dispatch; nothing traced since the step started',
      'stall_b: ttfa_exceeded no actuator command within 700 ms of dispatch; nothing traced since the step started',
      'stall_b: ttfa_exceeded no actuator command within 700 ms of dispatch; nothing traced since the step started',
      'stall_a: ttfa_exceeded no actuator command within 90 ms of dispatch; nothing traced since the step started',
    ]);
  });

  it("state() shows the running attempt's start as sinceMs, and the latest attempt's in backoff", async () => {
    const clock = new ManualClock(5_000);
    const flaky = defineFake({
      name: 'flaky',
      version: '2.0.0',
      description: 'fails once, then moves',
      inputSchema: z.object({}),
      run: async (ctx) => {
        await ctx.sleep(30);
        ctx.body.move(1);
        if (ctx.step.attempt === 1) return { ok: false, code: 'stuck', reason: 'slipped' };
      },
      acceptance: () => accepted,
    });
    const executor = createExecutor({ registry: registryWith(flaky), body: fakeBody(), clock, policy: { backoff: { initialMs: 400, factor: 2, maxMs: 400 } } });
    const running = executor.run({ planId: 'f', intentId: 'i', steps: [{ stepId: 'x', type: 'flaky', args: {} }] });
    await clock.advance(10);
    expect(executor.state().activeStep).toMatchObject({ attempt: 1, phase: 'running', sinceMs: 5_000 });
    await clock.advance(100);
    expect(executor.state().activeStep).toMatchObject({ attempt: 1, phase: 'backoff', sinceMs: 5_000 });
    await clock.advance(330);
    expect(executor.state().activeStep).toMatchObject({ attempt: 2, phase: 'running', sinceMs: 5_430 });
    await clock.advance(100);
    expect((await running).status).toBe('completed');
  });
});

class Lamp {
  lit = 0;
  toggle(times?: number): number {
    this.lit += times ?? 1;
    return this.lit;
  }
}

describe('a body with one actuate listener at a time', () => {
  it('reports each command to whoever listens now, and unsubscribing answers as a set would', () => {
    const lamp = instrumentMethods(new Lamp(), ['toggle']);
    const heard: string[] = [];
    const offFirst = lamp.sinew.onActuate((c) => heard.push(`first:${c.command}`));
    lamp.toggle();
    expect(offFirst()).toBe(true);
    expect(offFirst()).toBe(false);
    lamp.toggle();
    const offSecond = lamp.sinew.onActuate((c) => heard.push(`second:${c.command}`));
    expect(lamp.toggle(3)).toBe(5);
    const offThird = lamp.sinew.onActuate((c) => heard.push(`third:${c.detail}`));
    lamp.toggle(2);
    offSecond();
    lamp.toggle(4);
    offThird();
    lamp.sinew.onActuate(() => {
      throw new Error('a broken listener');
    });
    expect(lamp.toggle()).toBe(12);
    expect(heard).toEqual(['first:toggle', 'second:toggle', 'second:toggle', 'third:2', 'third:4']);
  });

  it('a listener another copy of the package removed from the shared hub is not called again', () => {
    const lamp = instrumentMethods(new Lamp(), ['toggle']);
    const heard: string[] = [];
    const old = (c: ActuatorCommand) => heard.push(`old:${c.command}`);
    lamp.sinew.onActuate(old);
    lamp.toggle();
    // Another copy (the CJS build beside the ESM one) finds the hub by its global symbol and changes its set itself.
    const hub = (lamp as unknown as Record<symbol, { listeners: Set<unknown> }>)[Symbol.for('sinew.actuator-hub')]!;
    hub.listeners.delete(old);
    hub.listeners.add((c: ActuatorCommand) => heard.push(`new:${c.command}`));
    lamp.toggle();
    expect(heard).toEqual(['old:toggle', 'new:toggle']);
  });

  it('an event through a view carries its issuer, and its detail only when there is one', () => {
    const lamp = instrumentMethods(new Lamp(), ['toggle']);
    const events: ActuatorCommand[] = [];
    lamp.sinew.onActuate((c) => events.push(c));
    const lease: ActuatorLease = { expired: false, stale() {} };
    const view = leasedView(lamp, lease);
    view.toggle();
    view.toggle(6);
    lamp.toggle(1);
    expect(events.map((e) => Object.keys(e))).toEqual([['command', 'issuer'], ['command', 'detail', 'issuer'], ['command', 'detail']]);
    expect(events[1]).toEqual({ command: 'toggle', detail: '6', issuer: lease });
  });
});
