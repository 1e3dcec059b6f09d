import type { Executor } from '@sinew/bt-runtime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serveSinew, type EventEnvelope, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, StreamClient, TOKEN } from './helpers.js';

const isControl = (e: EventEnvelope) => e.type.startsWith('stream.');
const planOf = (e: EventEnvelope) => (e.data as { planId?: string }).planId;

describe('/api/events subscriptions (real WebSocket on 127.0.0.1)', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  const clients: StreamClient[] = [];
  const client = async () => {
    const c = new StreamClient(server.url, { token: TOKEN });
    clients.push(c);
    await c.opened;
    return c;
  };
  /** Sends a subscription and waits for its answer (`stream.subscribed` or `stream.error`). */
  const send = async (c: StreamClient, message: string | Buffer) => {
    const answered = c.events.filter(isControl).length;
    c.socket.send(message, { binary: Buffer.isBuffer(message) });
    await c.waitFor(() => c.events.filter(isControl).length > answered);
    return c.events.filter(isControl).at(-1)!;
  };
  // dig log_1 succeeds; dig nope fails its guard: the plan fails.
  const run = (planId: string) =>
    executor.run({
      planId,
      intentId: 'i',
      steps: [
        { stepId: 's1', type: 'dig_block', args: { block: 'log_1' } },
        { stepId: 's2', type: 'dig_block', args: { block: 'nope' } },
      ],
    });

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    server = await serveSinew({ executor, port: 0, token: TOKEN, limits: { flushIntervalMs: 0 } });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.close();
    await executor.close();
  });

  it('sends a client only the types it subscribed to, from the seq stream.subscribed names; the others still get everything', async () => {
    const [narrow, everything] = [await client(), await client()];
    const subscribed = await send(narrow, JSON.stringify({ type: 'subscribe', types: ['executionComplete', 'step.failed', 'executionComplete'] }));
    expect(subscribed).toMatchObject({ type: 'stream.subscribed', seq: server.lastSeq(), data: { types: ['executionComplete', 'step.failed'], lastSeq: server.lastSeq() } });
    await run('p-narrow');
    const done = (e: EventEnvelope) => e.type === 'executionComplete' && planOf(e) === 'p-narrow';
    await Promise.all([narrow.waitFor(done), everything.waitFor(done)]);
    const got = narrow.events.filter((e) => !isControl(e));
    expect(got.map((e) => e.type)).toEqual(['step.failed', 'executionComplete']);
    const all = everything.events.filter((e) => !isControl(e) && planOf(e) === 'p-narrow');
    expect(all.map((e) => e.type)).toEqual(expect.arrayContaining(['plan.started', 'step.dispatched', 'step.succeeded', 'step.failed', 'executionComplete']));
    // The same envelopes, seq for seq: a subscribed client sees gaps, not other numbers.
    expect(got).toEqual(all.filter((e) => e.type === 'step.failed' || e.type === 'executionComplete'));
    expect(server.clients().map((c) => c.types)).toEqual([['executionComplete', 'step.failed'], '*']);

    expect(await send(narrow, '{"types":"*","type":"subscribe"}')).toMatchObject({ type: 'stream.subscribed', data: { types: '*' } });
    await run('p-wide');
    const wide = (e: EventEnvelope) => e.type === 'executionComplete' && planOf(e) === 'p-wide';
    await Promise.all([narrow.waitFor(wide), everything.waitFor(wide)]);
    expect(narrow.events.filter((e) => planOf(e) === 'p-wide').map((e) => e.type)).toEqual(everything.events.filter((e) => planOf(e) === 'p-wide').map((e) => e.type));
  });

  it('refuses a bad subscription with a stream.error naming the problem; the connection and the previous subscription stay', async () => {
    const c = await client();
    await send(c, JSON.stringify({ type: 'subscribe', types: ['planGenerated'] }));
    const refusals: [string | Buffer, RegExp, (string | number)[] | undefined][] = [
      ['{"type":"subscribe","types":["step.succeded"]}', /step\.succeeded/, ['types', 0]],
      ['{"type":"subscribe","types":"*","since":3}', /since/, []],
      ['{"type":"subscribe","types":[]}', /at least one event type/, ['types']],
      ['{"type":"unsubscribe","types":["botEvent"]}', /subscribe/, ['type']],
      ['{"type":"subscribe","types":["stream.hello"]}', /invalid subscription/, ['types', 0]],
      ['{"type":"subscribe","types":"all"}', /invalid subscription/, ['types']],
      ['[{"type":"subscribe"}]', /invalid subscription/, []],
      ['subscribe executionComplete', /not JSON/, undefined],
      [Buffer.from('{"type":"subscribe","types":"*"}'), /text frame/, undefined],
    ];
    for (const [message, says, path] of refusals) {
      const answer = await send(c, message);
      const error = (answer.data as { error: { code: string; message: string; issues?: { path: (string | number)[] }[] } }).error;
      expect(answer.type, String(message)).toBe('stream.error');
      expect(error.code).toBe('invalid_message');
      expect(error.message, String(message)).toMatch(says);
      expect(error.issues?.[0]?.path, String(message)).toEqual(path);
    }
    expect(c.socket.readyState).toBe(WebSocket.OPEN);
    await run('p-after');
    server.planGenerated({ intentId: 'still-here', planner: 'test', plan: null });
    await c.waitFor((e) => e.type === 'planGenerated');
    expect(c.events.filter((e) => !isControl(e)).map((e) => e.type)).toEqual(['planGenerated']);
    expect(server.clients()[0]!.types).toEqual(['planGenerated']);
  });
});
