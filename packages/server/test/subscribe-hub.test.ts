import type { WebSocket } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../src/stream/hub.js';
import { Subscription } from '../src/stream/subscription.js';

/** A socket that takes every write at once (completed after the call, as a socket does) and keeps what it was handed, as handed. */
class Sink {
  readonly OPEN = 1;
  readonly readyState = 1;
  readonly bufferedAmount = 0;
  readonly sent: (Buffer | string)[] = [];

  send(data: Buffer | string, _options: unknown, done: (error?: Error) => void): void {
    this.sent.push(data);
    queueMicrotask(() => done());
  }

  once(): void {}

  /** The envelopes received, in order, without the hello and other control envelopes. */
  events(): { seq: number; type: string; data: unknown }[] {
    return this.sent.flatMap((frame) => String(frame).split('\n').map((line) => JSON.parse(line) as { seq: number; type: string; data: unknown })).filter((e) => !e.type.startsWith('stream.'));
  }
}

const limits = { flushIntervalMs: 10, ringSize: 64, clientQueue: 64, clientHighWaterBytes: 1 << 20 };

/** A hub and sinks attached to it, each with the subscription given (undefined: the default, every type). */
function hubWith(subscriptions: ('*' | string[] | undefined)[]): { hub: EventHub; sinks: Sink[] } {
  const hub = new EventHub(limits, () => 1_700_000_000_123);
  const sinks = subscriptions.map((types) => {
    const sink = new Sink();
    const id = hub.attach(sink as unknown as WebSocket);
    if (types !== undefined) hub.subscribe(id, new Subscription(types));
    sink.sent.length = 0; // stream.hello, stream.subscribed
    return sink;
  });
  return { hub, sinks };
}

// Payloads of the shapes the executor publishes, and some it might: a plan that failed before any step, text
// in three scripts, an empty object, an array, a number.
const dispatched = { planId: 'plan-Ω', stepId: 's0', verb: 'dig_block', capability: 'dig_block@1.2.0', attempt: 1 };
const firstAction = { planId: 'plan-Ω', stepId: 's0', verb: 'dig_block', command: 'dig', ttfaMs: 12.5, attempt: 1 };
const failed = { planId: 'plan-Ω', stepId: 's0', status: 'failed', failure: { code: 'stuck', reason: 'no progress for 3000 ms — 卡住了', retryable: true } };
const outcome = { planId: 'plan-Ω', intentId: 'i', status: 'failed', steps: [], failure: { code: 'runner_error', reason: 'déjà vu', retryable: false } };
const published: [string, unknown][] = [
  ['plan.started', { planId: 'plan-Ω', intentId: 'i', steps: 1 }],
  ['step.dispatched', dispatched],
  ['step.first_action', firstAction],
  ['bt.transition', { nodePath: 'root/sequence[0]', from: 'ready', to: 'running' }],
  ['step.failed', failed],
  ['planGenerated', {}],
  ['cognitionEvent', [1, 'two', { three: 3 }]],
  ['botEvent', 42],
  ['executionComplete', outcome],
];

describe('EventHub: subscriptions', () => {
  afterEach(() => vi.restoreAllMocks());

  it('serializes each event once per flush, whatever the clients, and a type nobody subscribed to not at all', () => {
    const { hub, sinks } = hubWith([['executionComplete'], ['step.failed', 'executionComplete'], ['executionComplete'], ['executionComplete', 'step.failed'], ['planGenerated']]);
    const stringify = vi.spyOn(JSON, 'stringify');
    for (const [type, data] of published) hub.publish(type, data);
    hub.flush();
    const serialized = (payload: unknown) => stringify.mock.calls.filter(([value]) => value === payload).length;
    expect(published.map(([, data]) => serialized(data))).toEqual(published.map(([type]) => (['executionComplete', 'step.failed', 'planGenerated'].includes(type) ? 1 : 0)));
    const types = sinks.map((sink) => sink.events().map((e) => e.type));
    expect(types).toEqual([['executionComplete'], ['step.failed', 'executionComplete'], ['executionComplete'], ['step.failed', 'executionComplete'], ['planGenerated']]);
    // One encoding per subscription: the clients of a group are handed the very same frame.
    expect(sinks[0]!.sent).toHaveLength(1);
    expect(sinks[2]!.sent[0]).toBe(sinks[0]!.sent[0]);
    expect(sinks[3]!.sent[0]).toBe(sinks[1]!.sent[0]);
    expect(sinks[1]!.sent[0]).not.toBe(sinks[0]!.sent[0]);
    expect(hub.clients().map((c) => c.types)).toEqual([['executionComplete'], ['executionComplete', 'step.failed'], ['executionComplete'], ['executionComplete', 'step.failed'], ['planGenerated']]);
  });

  it('gives clients of the default subscription every event in one shared frame, each event serialized once for all', () => {
    const { hub, sinks } = hubWith([undefined, '*', undefined, ['botEvent']]);
    const stringify = vi.spyOn(JSON, 'stringify');
    for (const [type, data] of published) hub.publish(type, data);
    hub.flush();
    for (const [, data] of published) expect(stringify.mock.calls.filter(([value]) => value === data)).toHaveLength(1);
    expect(sinks[0]!.events().map((e) => e.type)).toEqual(published.map(([type]) => type));
    expect(sinks[1]!.sent[0]).toBe(sinks[0]!.sent[0]);
    expect(sinks[2]!.sent[0]).toBe(sinks[0]!.sent[0]);
    expect(sinks[3]!.events()).toEqual([{ seq: 8, ts: 1_700_000_000_123, type: 'botEvent', data: 42, v: 1 }]);
  });

  it('keeps what nobody subscribed to in the ring: a client resuming later gets it, serialized then', () => {
    const { hub } = hubWith([['executionComplete']]);
    const stringify = vi.spyOn(JSON, 'stringify');
    hub.publish('step.dispatched', dispatched);
    hub.publish('executionComplete', outcome);
    hub.flush();
    expect(stringify.mock.calls.filter(([value]) => value === dispatched)).toHaveLength(0);
    const late = new Sink();
    hub.attach(late as unknown as WebSocket, { since: 0 });
    expect(late.events().map((e) => [e.seq, e.type])).toEqual([
      [1, 'step.dispatched'],
      [2, 'executionComplete'],
    ]);
    expect(stringify.mock.calls.filter(([value]) => value === dispatched)).toHaveLength(1);
    expect(stringify.mock.calls.filter(([value]) => value === outcome)).toHaveLength(1);
  });

  it('applies a new subscription from the next event: what was published before goes out under the old one', () => {
    const { hub, sinks } = hubWith([undefined]);
    const [sink] = sinks;
    hub.publish('step.dispatched', dispatched);
    hub.subscribe(hub.clients()[0]!.id, new Subscription(['executionComplete']));
    hub.publish('step.first_action', firstAction);
    hub.publish('executionComplete', outcome);
    hub.flush();
    const all = sink!.sent.flatMap((frame) => String(frame).split('\n').map((line) => JSON.parse(line) as { seq: number; type: string; data: unknown }));
    expect(all.map((e) => [e.type, e.seq])).toEqual([
      ['step.dispatched', 1],
      ['stream.subscribed', 1],
      ['executionComplete', 3],
    ]);
    expect(all[1]!.data).toEqual({ types: ['executionComplete'], lastSeq: 1 });
  });
});
