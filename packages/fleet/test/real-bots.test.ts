import { createExecutor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot } from '@sinew/capabilities';
import { connectBot, setBlock, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleetQueue, createFleetWorker, createRedisJournal, type FleetEvent } from '../src/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let redis: RedisServer;
let server: TestServer;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  [redis, server] = await Promise.all([startRedisServer(), startServer()]);
});
afterAll(async () => {
  for (const close of closers) await close();
  await server.stop();
  await redis.dispose();
});

describe('a fleet of real mineflayer bots', () => {
  it('digs each queued block once, whichever bot is free takes each plan, and the journal holds each step once', async () => {
    const connection = { host: '127.0.0.1', port: redis.port };
    const [queue, journal] = [createFleetQueue(connection, { prefix: 'mc' }), createRedisJournal(connection, { prefix: 'mc' })];
    closers.push(() => queue.close(), () => journal.close());
    const events: (FleetEvent & { bot: string })[] = [];
    const bots: ReturnType<typeof instrumentBot>[] = [];
    for (const username of ['fleet_ash', 'fleet_birch']) {
      const bot = instrumentBot(await connectBot(server, { username }));
      bots.push(bot);
      const worker = createFleetWorker({ queue, journal, executor: (store) => createExecutor({ registry: createStandardRegistry(), body: bot, journal: store }), pollMs: 50, isReady: () => bot.entity !== undefined, onEvent: (event) => events.push({ ...event, bot: username }) });
      closers.unshift(() => worker.close(), () => bot.quit());
    }
    const targets = [server.spawn.offset(2, 0, 1), server.spawn.offset(-2, 0, -1), server.spawn.offset(1, 0, -3), server.spawn.offset(-3, 0, 2)].map((p) => p.floored());
    for (const target of targets) await setBlock(server, target, 'dirt');
    const plans = targets.map((p, n) => ({ planId: `dig/${p.x},${p.y},${p.z}`, intentId: 'clear', steps: [{ stepId: `dig-${n}`, type: 'dig_block', args: { position: { x: p.x, y: p.y, z: p.z } } }] }));
    for (const plan of plans) await queue.submit(plan);
    const deadline = Date.now() + 40_000;
    const histories = async () => Promise.all(plans.map((plan) => journal.history(plan.planId)));
    while ((await histories()).some((h) => !h.records.some((r) => r.kind === 'plan_end')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const done = await histories();
    expect(done.map((h) => h.records.map((r) => (r.kind === 'plan_end' ? r.status : r.kind)))).toEqual(plans.map(() => ['plan_start', 'step', 'completed']));
    for (const target of targets) expect(bots[0]!.blockAt(target)?.name).toBe('air');
    expect(events.filter((e) => e.type === 'step.recorded').map((e) => e.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
  });
});
