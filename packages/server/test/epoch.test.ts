import type { Executor } from '@sinew/bt-runtime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, type EventEnvelope, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, StreamClient, TOKEN } from './helpers.js';

const hello = (client: StreamClient) => client.waitFor((e) => e.type === 'stream.hello') as Promise<EventEnvelope<'stream.hello', Record<string, unknown>>>;
const publish = (server: SinewServer, count: number) => {
  for (let n = 1; n <= count; n += 1) server.planGenerated({ intentId: `i${n}`, planner: 'test', plan: { n } });
};

// A client that knew seq 10 of the first server resumes against its successor, which has published 6.
describe('/api/events across a server restart: seq numbers belong to an epoch', () => {
  let executor: Executor<Body>;
  let before: SinewServer;
  let after: SinewServer;
  let lastSeen: { seq: number; epoch: string };
  const clients: StreamClient[] = [];
  const client = (options: ConstructorParameters<typeof StreamClient>[1] = {}) => {
    const c = new StreamClient(after.url, { token: TOKEN, ...options });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    before = await serveSinew({ executor, port: 0, token: TOKEN, limits: { ringSize: 4 } });
    const first = new StreamClient(before.url, { token: TOKEN });
    const greeting = await hello(first);
    publish(before, 10);
    const tenth = await first.waitFor((e) => e.seq === 10 && e.type === 'planGenerated');
    lastSeen = { seq: tenth.seq, epoch: greeting.data.epoch as string };
    await first.close();
    await before.close();
    after = await serveSinew({ executor, port: 0, token: TOKEN, limits: { ringSize: 4 } });
    publish(after, 6);
    expect(after.lastSeq()).toBe(6);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await after.close();
    await executor.close();
  });

  it('every server start has its own epoch id, said in the hello', async () => {
    expect(lastSeen.epoch).toMatch(/^[0-9a-f]{16}$/);
    expect(after.epoch).toMatch(/^[0-9a-f]{16}$/);
    expect(after.epoch).not.toBe(lastSeen.epoch);
    expect((await hello(client())).data).toMatchObject({ epoch: after.epoch, newEpoch: false, since: null, replayed: 0, missed: 0 });
  });

  it('since beyond lastSeq with the old epoch: a new epoch — the whole ring replayed, the events that left it counted as missed, a snapshot', async () => {
    const resumed = client({ since: lastSeen.seq, epoch: lastSeen.epoch });
    const greeting = await hello(resumed);
    expect(greeting.data).toMatchObject({ epoch: after.epoch, newEpoch: true, since: 10, lastSeq: 6, replayed: 4, missed: 2 });
    expect(greeting.data.snapshot).toMatchObject({ bot: null, executor: expect.any(Object), activePlan: null });
    await resumed.waitFor((e) => e.seq === 6 && e.type === 'planGenerated');
    expect(resumed.events.filter((e) => e.type === 'planGenerated').map((e) => e.seq)).toEqual([3, 4, 5, 6]);
  });

  it('since beyond lastSeq without an epoch (an older client) is recognised as another epoch too', async () => {
    const greeting = await hello(client({ since: lastSeen.seq }));
    expect(greeting.data).toMatchObject({ newEpoch: true, replayed: 4, missed: 2 });
  });

  it('a seq of another epoch below lastSeq does not skip the new events: replayed from the ring start', async () => {
    const greeting = await hello(client({ since: 4, epoch: lastSeen.epoch }));
    expect(greeting.data).toMatchObject({ newEpoch: true, replayed: 4, missed: 2 });
  });

  it('the current epoch resumes as before, and no snapshot is sent', async () => {
    const greeting = await hello(client({ since: 4, epoch: after.epoch }));
    expect(greeting.data).toMatchObject({ newEpoch: false, replayed: 2, missed: 0 });
    expect(greeting.data).not.toHaveProperty('snapshot');
  });

  it('refuses a malformed epoch (400)', async () => {
    await expect(new StreamClient(after.url, { token: TOKEN, since: 1, epoch: 'x'.repeat(65) }).opened).rejects.toThrow(/400/);
    await expect(new StreamClient(after.url, { token: TOKEN, since: 1, epoch: 'a b' }).opened).rejects.toThrow(/400/);
  });
});

describe('/api/events: the snapshot of a bot that is not there yet', () => {
  it('greets a client of another epoch with what can be read (a throwing getter reads as null)', async () => {
    const { executor } = fakeExecutor();
    const bot = {
      get entity(): never {
        throw new Error('bot not spawned');
      },
    };
    const server = await serveSinew({ executor, bot: bot as never, port: 0, token: TOKEN });
    const client = new StreamClient(server.url, { token: TOKEN, since: 3, epoch: 'ffffffffffffffff' });
    const greeting = await hello(client);
    expect(greeting.data).toMatchObject({ newEpoch: true, snapshot: { bot: { position: null }, executor: { status: 'idle' } } });
    await client.close();
    await server.close();
    await executor.close();
  });
});
