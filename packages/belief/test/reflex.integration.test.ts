import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor, type Executor, type ExecutorEvents } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, type SinewBot } from '@sinew/capabilities';
import type { StepOutcome } from '@sinew/executor-contracts';
import { Registry } from 'prom-client';
import { connectBot, reset, spawnMob, startServer, waitUntil, type TestServer } from '@sinew/testkit';
import { createReflex, StreamMessageSchema, type Reflex, type ReflexEvent, type StreamMessage } from '@sinew/belief';
import { attachBelief, type BeliefAdapter } from '@sinew/belief/mineflayer';

// One embedded flying-squid server, one real bot, the real executor and standard capabilities.
let server: TestServer;
let bot: SinewBot;
let executor: Executor<SinewBot>;
let reflex: Reflex;
let belief: BeliefAdapter;
const reflexEvents: ReflexEvent[] = [];

beforeAll(async () => {
  server = await startServer();
  bot = instrumentBot(await connectBot(server, { username: 'belief' }));
  executor = createExecutor({ registry: createStandardRegistry(), body: bot, policy: { maxLocalRetries: 0 } });
  // The reflex talks to the executor's preemption port directly — no planner, no LLM.
  reflex = createReflex({ preemptor: executor, config: { fleeWithinBlocks: 6, releaseBeyondBlocks: 9, holdTicks: 5 }, onEvent: (e) => reflexEvents.push(e) });
  belief = attachBelief(bot, { reflex });
});

afterAll(async () => {
  belief?.stop();
  await reflex?.idle();
  await executor?.close();
  bot?.quit();
  await server?.stop();
});

const horizontal = (a: { x: number; z: number }, b: { x: number; z: number }): number => Math.hypot(a.x - b.x, a.z - b.z);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('belief on the embedded server', () => {
  it('the adapter turns real entities into hostile/passive tracks and versioned messages, never including the bot', async () => {
    await reset(server);
    const registry = new Registry();
    const probe = attachBelief(bot, { registry }); // manual ticks, no reflex
    const messages: StreamMessage[] = [];
    probe.on('message', (m) => messages.push(m));
    const s = server.spawn;
    await spawnMob(server, 'cow', { x: s.x + 8, y: s.y, z: s.z });
    await spawnMob(server, 'zombie', { x: s.x - 10, y: s.y, z: s.z + 10 }, { hostile: false });
    for (let i = 0; i < 6; i += 1) {
      probe.tick();
      await pause(100);
    }
    const tracks = probe.bus.tracks();
    expect(tracks.map((t) => [t.cls, t.hostile, t.visibility]).sort()).toEqual([
      ['cow', false, 'visible'],
      ['zombie', true, 'visible'],
    ]);
    expect(probe.bus.threats().map((t) => t.cls)).toEqual(['zombie']);
    expect(messages[0]).toMatchObject({ kind: 'snapshot', seq: 1, tickId: 1 });
    for (const m of messages) expect(StreamMessageSchema.safeParse(m).success).toBe(true);
    expect(await registry.metrics()).toContain('sinew_belief_tracks{visibility="visible"} 2');
    await reset(server);
    await waitUntil(server, () => horizontal(bot.entity.position, server.spawn) <= 1.5, 100);
  });

  it('a zombie closing in makes the reflex preempt the running step with flee; flee gains distance; the step resumes and completes', async () => {
    const events: { name: string; stepId: string; verb: string }[] = [];
    const record = <E extends 'step.preempted' | 'step.resumed' | 'step.succeeded' | 'step.failed'>(name: E) =>
      executor.on(name, (e: ExecutorEvents[E]) => events.push({ name, stepId: e.stepId, verb: e.verb }));
    const stops = [record('step.preempted'), record('step.resumed'), record('step.succeeded'), record('step.failed')];
    const fleeOutcomes: StepOutcome[] = [];
    const fleeGeometry: { from: { x: number; z: number }; startDistance: number }[] = [];
    const stopFlee = executor.on('step.dispatched', (e) => {
      const last = reflexEvents.findLast((r) => r.type === 'preempt');
      if (e.verb === 'flee' && last?.type === 'preempt') {
        const from = last.step.args.from as { x: number; z: number };
        fleeGeometry.push({ from, startDistance: horizontal(bot.entity.position, from) });
      }
    });
    const stopOutcome = executor.on('step.succeeded', (o) => {
      if (o.verb === 'flee') fleeOutcomes.push({ ...o, observables: { ...o.observables, endDistance: horizontal(bot.entity.position, fleeGeometry.at(-1)!.from) } });
    });

    belief.start();
    const target = { x: server.spawn.x, y: server.spawn.y, z: server.spawn.z - 24 };
    const plan = executor.run({ planId: 'walk', intentId: 'walk-north', steps: [{ stepId: 'walk', type: 'navigate', args: { position: target, range: 1 } }] });
    // once the walk is under way, a zombie appears just ahead and to the side of the bot
    await waitUntil(server, () => horizontal(bot.entity.position, server.spawn) >= 2, 200);
    const p = bot.entity.position;
    await spawnMob(server, 'zombie', { x: p.x + 4, y: server.spawn.y, z: p.z - 2 }, { speed: 1, followRange: 6, attackDamage: 1 });
    const outcome = await plan;
    await reflex.idle();
    for (const stop of [...stops, stopFlee, stopOutcome]) stop();

    console.info(`[belief] reflex: ${reflexEvents.map((e) => (e.type === "preempt" ? `preempt ${e.step.type}@tick${e.tickId}` : e.type)).join(", ")}; executor: ${events.map((e) => `${e.name}:${e.verb}`).join(", ")}`);
    // the reflex preempted with flee from the zombie, through the executor
    const preempts = reflexEvents.filter((e) => e.type === 'preempt');
    expect(preempts.length).toBeGreaterThanOrEqual(1);
    expect(preempts[0]!.type === 'preempt' && preempts[0]!.step).toMatchObject({ type: 'flee', args: { entity: 'zombie', distance: 12 } });
    // the walk was interrupted, then resumed
    expect(events).toContainEqual({ name: 'step.preempted', stepId: 'walk', verb: 'navigate' });
    expect(events).toContainEqual({ name: 'step.resumed', stepId: 'walk', verb: 'navigate' });
    // flee succeeded, i.e. its acceptance held: the distance to the threat grew to ≥ 12 blocks
    expect(fleeOutcomes.length).toBeGreaterThanOrEqual(1);
    const geometry = fleeGeometry[0]!;
    expect(fleeOutcomes[0]!.status).toBe('succeeded');
    expect(fleeOutcomes[0]!.observables?.endDistance as number).toBeGreaterThan(geometry.startDistance);
    expect(fleeOutcomes[0]!.observables?.endDistance as number).toBeGreaterThanOrEqual(11.5);
    // and the interrupted step completed where it was going
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(outcome.steps.at(-1)).toMatchObject({ stepId: 'walk', status: 'succeeded' });
    expect(horizontal(bot.entity.position, target)).toBeLessThanOrEqual(2);
    const order = events.map((e) => `${e.name}:${e.verb}`);
    expect(order.indexOf('step.preempted:navigate')).toBeLessThan(order.indexOf('step.succeeded:flee'));
    expect(order.indexOf('step.succeeded:flee')).toBeLessThan(order.lastIndexOf('step.succeeded:navigate'));
  });
});
