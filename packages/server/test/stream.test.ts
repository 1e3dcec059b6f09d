import { setImmediate as tick } from 'node:timers/promises';
import { defineBehavior, type Executor } from '@sinew/bt-runtime';
import { defineCapability, guardOk } from '@sinew/executor-contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_STREAM_VERSION, serveSinew, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, http, rawSocket, StreamClient, TOKEN } from './helpers.js';

/** patrol: a two-leaf behavior tree that moves twice (its transitions feed `bt.transition`). */
const PATROL_TREE = 'root { sequence { action [StepOut] action [StepBack] } }';
const patrol = defineCapability<z.ZodObject<{}>, Body>({
  name: 'patrol',
  version: '1.0.0',
  description: 'step out and back',
  inputSchema: z.object({}),
  guard: () => guardOk,
  behavior: defineBehavior<Body, object>({
    tree: PATROL_TREE,
    tickMs: 5,
    actions: {
      StepOut: async (ctx) => {
        ctx.body.move(1);
        return 'succeeded' as const;
      },
      StepBack: async (ctx) => {
        ctx.body.move(-1);
        return 'succeeded' as const;
      },
    },
  }),
  acceptance: () => ({ ok: true }),
});

const data = (e: { data: unknown }) => e.data as Record<string, unknown>;

describe('/api/events (real WebSocket on 127.0.0.1)', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  const clients: StreamClient[] = [];
  const client = (options: ConstructorParameters<typeof StreamClient>[1] = {}) => {
    const c = new StreamClient(server.url, { token: TOKEN, ...options });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    ({ executor } = fakeExecutor([patrol]));
    server = await serveSinew({ executor, port: 0, token: TOKEN, trees: { patrol: PATROL_TREE }, limits: { ringSize: 8, maxStreamClients: 3 } });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.close();
    await executor.close();
  });

  it('refuses a missing or wrong token (401) and accepts the header or a bearer.<token> subprotocol', async () => {
    await expect(new StreamClient(server.url).opened).rejects.toThrow(/401/);
    await expect(new StreamClient(server.url, { token: 'wrong-token-0123456789' }).opened).rejects.toThrow(/401/);
    await client().opened;
    const browserStyle = client({ protocols: ['sinew.v1', `bearer.${TOKEN}`] });
    delete (browserStyle as { token?: string }).token;
    await browserStyle.opened;
    expect(browserStyle.socket.protocol).toBe('sinew.v1');
  });

  it('sends versioned envelopes with increasing seq: step events, bt.transition (from → to) and executionComplete', async () => {
    const c = client();
    await c.opened;
    await executor.run({ planId: 'p-bt', intentId: 'i', steps: [{ stepId: 'walk', type: 'patrol', args: {} }] });
    await c.waitFor((e) => e.type === 'executionComplete');
    const [hello, ...events] = c.events;
    expect(hello).toMatchObject({ v: EVENT_STREAM_VERSION, type: 'stream.hello', data: { since: null, replayed: 0 } });
    for (const [i, e] of events.entries()) {
      expect(Object.keys(e).sort()).toEqual(['data', 'seq', 'ts', 'type', 'v']);
      if (i > 0) expect(e.seq).toBe(events[i - 1]!.seq + 1);
    }
    const types = events.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['plan.started', 'step.dispatched']);
    expect(types.at(-2)).toBe('step.succeeded');
    expect(types.at(-1)).toBe('executionComplete');
    const out = events.filter((e) => e.type === 'bt.transition' && data(e).nodePath === 'root/sequence[0]/action:StepOut[0]').map(data);
    expect(out[0]).toMatchObject({ planId: 'p-bt', stepId: 'walk', verb: 'patrol', attempt: 1, from: 'ready', to: 'running' });
    expect(out.at(-1)).toMatchObject({ from: 'running', to: 'succeeded' });
  });

  it('GET /api/capabilities gives the trees drawn from their definition', async () => {
    const res = (await http(server.url, '/api/capabilities')).json() as { trees: Record<string, string[]> };
    expect(res.trees.patrol).toEqual(['root', 'root/sequence[0]', 'root/sequence[0]/action:StepOut[0]', 'root/sequence[0]/action:StepBack[1]']);
  });

  it('resumes after a reconnect with ?since=<seq> from the ring, and says how many fell out of it', async () => {
    const first = client();
    await first.opened;
    server.planGenerated({ intentId: 'i', planner: 'test', plan: { n: 1 } });
    const seen = await first.waitFor((e) => e.type === 'planGenerated');
    await first.close();
    for (let n = 2; n <= 5; n += 1) server.planGenerated({ intentId: 'i', planner: 'test', plan: { n } });
    await tick();
    const resumed = client({ since: seen.seq });
    await resumed.waitFor((e) => e.type === 'planGenerated' && (data(e).plan as { n: number }).n === 5);
    expect(resumed.events[0]).toMatchObject({ type: 'stream.hello', data: { since: seen.seq, replayed: 4, missed: 0 } });
    expect(resumed.events.slice(1).map((e) => e.seq)).toEqual([seen.seq + 1, seen.seq + 2, seen.seq + 3, seen.seq + 4]);
    const old = client({ since: 0 });
    const hello = await old.waitFor((e) => e.type === 'stream.hello');
    expect(data(hello).replayed).toBe(8);
    expect(data(hello).missed).toBe(server.lastSeq() - 8);
  });

  it('refuses a bad since (400) and clients past maxStreamClients (503)', async () => {
    await expect(new StreamClient(server.url, { token: TOKEN, since: -1 }).opened).rejects.toThrow(/400/);
    await Promise.all([client().opened, client().opened, client().opened]);
    await expect(new StreamClient(server.url, { token: TOKEN }).opened).rejects.toThrow(/503/);
  });
});

describe('/api/events: a client that never reads', () => {
  it('keeps a bounded queue per client, drops the oldest and counts them; other clients get everything', async () => {
    const { executor } = fakeExecutor();
    // the default flush interval: a 10 ms batch (up to clientQueue events) goes out in frames under each client's high-water mark
    const limits = { clientQueue: 32, clientHighWaterBytes: 64 * 1024 };
    const server = await serveSinew({ executor, port: 0, token: TOKEN, limits });
    const raw = await rawSocket(server.port);
    raw.socket.write(
      `GET /api/events HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\nsec-websocket-protocol: sinew.v1\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    while (!raw.received().includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 5));
    raw.socket.pause(); // never reads again: the kernel buffers fill, then the server must hold back
    const reader = new StreamClient(server.url, { token: TOKEN });
    await reader.opened;
    const pad = 'x'.repeat(8 * 1024);
    // 4000 events of 8 KB in bursts of 8 a reading client keeps up with; the silent one cannot.
    for (let batch = 0; batch < 500; batch += 1) {
      for (let i = 0; i < 8; i += 1) server.planGenerated({ intentId: `${batch}-${i}`, planner: 'flood', plan: pad });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await reader.waitFor((e) => data(e).intentId === '499-7', 20_000);
    const slow = server.clients().find((c) => c.dropped > 0);
    expect(slow, JSON.stringify(server.clients())).toBeDefined();
    expect(slow!.queued).toBeLessThanOrEqual(limits.clientQueue);
    expect(slow!.inflightBytes).toBeLessThanOrEqual(limits.clientHighWaterBytes);
    expect(reader.events.filter((e) => e.type === 'planGenerated')).toHaveLength(4000);
    expect((await http(server.url, '/metrics')).text).toMatch(new RegExp(`sinew_server_stream_dropped_events_total ${slow!.dropped}\\b`));
    raw.socket.destroy();
    await reader.close();
    await server.close();
    await executor.close();
  });
});
