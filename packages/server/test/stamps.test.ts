import { createExecutor, createExecutorMetrics, type Executor } from '@sinew/bt-runtime';
import { accepted, ManualClock } from '@sinew/executor-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveSinew, type EventEnvelope, type SinewServer } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type Body } from '../../bt-runtime/test/fake-body.js';
import { StreamClient, TOKEN } from './helpers.js';

/** Waits 30 ms on its context's clock, then moves: its first command comes 30 ms after dispatch. */
const late = defineFake({
  name: 'late',
  version: '1.0.0',
  description: 'moves after 30 ms',
  inputSchema: z.object({}),
  run: async (ctx) => {
    await ctx.sleep(30);
    ctx.body.move(1);
  },
  acceptance: () => accepted,
});

/** A clock far from both zero and the epoch: a stamp read from the system clock cannot pass for one of its readings. */
const START = 7_000_000;

describe('stream timestamps', () => {
  const clock = new ManualClock(START);
  let executor: Executor<Body>;
  let server: SinewServer;
  let stream: StreamClient;

  beforeAll(async () => {
    executor = createExecutor({ registry: registryWith(late), body: fakeBody(), clock, metrics: createExecutorMetrics() });
    server = await serveSinew({ executor, port: 0, token: TOKEN });
    stream = new StreamClient(server.url, { token: TOKEN, since: 0 });
    await stream.opened;
  });
  afterAll(async () => {
    await stream.close();
    await server.close();
    await executor.close();
  });

  it('are read from the executor clock, and the times step events carry are their stamps', async () => {
    const running = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'late', args: {} }] });
    await clock.advance(1_000);
    expect((await running).status).toBe('completed');
    const ended = await stream.waitFor((e) => e.type === 'executionComplete');
    const events = stream.events.filter((e) => e.seq > 0 && e.seq <= ended.seq);
    const of = (type: string): EventEnvelope => events.find((e) => e.type === type)!;
    const data = (type: string) => of(type).data as Record<string, number>;
    expect(events.map((e) => e.type)).toEqual(['plan.started', 'step.dispatched', 'step.first_action', 'step.succeeded', 'executionComplete']);
    expect(of('plan.started').ts).toBe(START);
    expect(of('step.dispatched').ts).toBe(START);
    expect(data('step.first_action')).toMatchObject({ ttfaMs: 30, at: START + 30 });
    expect(of('step.first_action').ts).toBe(START + 30);
    expect(of('step.succeeded').ts).toBe(data('step.succeeded').endedAt);
    expect(of('executionComplete').ts).toBe(data('executionComplete').endedAt);
    expect(data('executionComplete').endedAt).toBeGreaterThanOrEqual(START + 30);
  });
});
