import { afterEach, describe, expect, it } from 'vitest';
import { serveSinew, type SinewServer } from '../src/index.js';
import { fakeExecutor, StreamClient, TOKEN } from './helpers.js';

describe('/api/events batches (real WebSocket on 127.0.0.1)', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });
  const start = async (limits: { ringSize: number; flushIntervalMs?: number }): Promise<SinewServer> => {
    const { executor } = fakeExecutor();
    const server = await serveSinew({ executor, port: 0, token: TOKEN, limits });
    stops.push(() => executor.close(), () => server.close());
    return server;
  };
  const connect = async (server: SinewServer, since?: number): Promise<StreamClient> => {
    const client = new StreamClient(server.url, { token: TOKEN, ...(since === undefined ? {} : { since }) });
    stops.push(() => client.close());
    await client.opened;
    return client;
  };

  it('a turn that publishes more events than the ring holds reaches a connected client whole, in order, UTF-8 intact', async () => {
    const server = await start({ ringSize: 8, flushIntervalMs: 20 });
    const client = await connect(server);
    const first = server.lastSeq() + 1;
    for (let n = 1; n <= 30; n += 1) server.planGenerated({ intentId: `i${n}`, planner: 'burst', plan: { n, text: 'bûche ✓ 🪵' } });
    await client.waitFor((e) => (e.data as { intentId?: string }).intentId === 'i30');
    const burst = client.events.filter((e) => e.type === 'planGenerated');
    expect(burst.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => first + i));
    expect(burst.map((e) => (e.data as { plan: { n: number } }).plan.n)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(new Set(burst.map((e) => (e.data as { plan: { text: string } }).plan.text))).toEqual(new Set(['bûche ✓ 🪵']));
    const resumed = await connect(server, first - 1);
    const hello = await resumed.waitFor((e) => e.type === 'stream.hello');
    expect(hello.data).toMatchObject({ replayed: 8, missed: 22 });
    expect(resumed.events.slice(1, 9).map((e) => e.seq)).toEqual(Array.from({ length: 8 }, (_, i) => first + 22 + i));
  });

  it('a payload that cannot be serialized becomes a note in its envelope; the events around it still arrive', async () => {
    const server = await start({ ringSize: 16 });
    const client = await connect(server);
    const cycle: Record<string, unknown> = { intentId: 'cycle' };
    cycle.self = cycle;
    server.planGenerated({ intentId: 'before', planner: 'p', plan: 1 });
    server.planGenerated({ intentId: 'cycle', planner: 'p', plan: cycle });
    server.planGenerated({ intentId: 'after', planner: 'p', plan: 3 });
    await client.waitFor((e) => (e.data as { intentId?: string }).intentId === 'after');
    const events = client.events.filter((e) => e.type !== 'stream.hello');
    expect(events).toHaveLength(3);
    expect(events[1]).toMatchObject({ v: 1, type: 'planGenerated', data: { unserializable: expect.stringMatching(/circular/i) } });
  });
});
