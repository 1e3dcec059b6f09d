import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createOtelProvenance } from '@sinew/bt-runtime/otel';
import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleetQueue, createFleetWorker, createRedisJournal, type FleetEvent, type FleetWorker } from '../src/index.js';
import { fileWorldExecutor, fileWorldRecovery } from './fixtures/world.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
let dir: string;
beforeAll(async () => {
  server = await startRedisServer();
  dir = mkdtempSync(join(tmpdir(), 'sinew-fleet-trace-'));
});
afterAll(async () => {
  await server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fleet tracing', () => {
  it('joins the spans of every worker that ran part of a plan in the one trace its job carries', async () => {
    const connection = { host: '127.0.0.1', port: server.port };
    const timing = { lockMs: 1_000, stalledCheckMs: 200 };
    const [queue, journal] = [createFleetQueue(connection, { prefix: 'trace', ...timing }), createRedisJournal(connection, { prefix: 'trace', leaseMs: 1_000 })];
    const redis = new Redis(connection);
    // One tracer provider per worker, as in separate processes: what each exported is known apart.
    const exporters = new Map<string, InMemorySpanExporter>();
    const providers: BasicTracerProvider[] = [];
    const tracing = (bot: string) => {
      const exporter = new InMemorySpanExporter();
      exporters.set(bot, exporter);
      return providers[providers.push(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })) - 1]!;
    };
    const world = join(dir, 'world.log');
    const events: (FleetEvent & { bot: string })[] = [];
    const workers: FleetWorker[] = [];
    const join_ = (bot: string) =>
      workers.push(
        createFleetWorker({
          queue,
          journal,
          id: bot,
          pollMs: 50,
          executor: (store, fleet) => fileWorldExecutor(world, ['dig'], 400, store, undefined, createOtelProvenance({ provider: tracing(bot), traceParent: fleet.traceParent })),
          // The first worker acts on b and loses its lease before b's record: the second finds b's effect in the world.
          recover: fileWorldRecovery(world, ['dig']),
          onEvent: (event) => events.push({ ...event, bot }),
        }),
      );
    try {
      join_('first');
      const plan = ['a', 'b', 'c'].map((mark) => ({ stepId: mark, type: 'dig', args: { mark: `traced-${mark}` } }));
      const { traceParent } = await queue.submit({ planId: 'traced', intentId: 'trace-intent', steps: plan });
      while (!events.some((e) => e.type === 'step.recorded')) await sleep(20);
      // The first worker loses its lease mid-plan (as if it had stalled past it): it abandons the plan at its next
      // write. Closed then (its spans flushed), it cannot take the plan back: the second worker finishes it.
      await redis.del('trace:lease:traced');
      const deadline = Date.now() + 20_000;
      while (!events.some((e) => e.type === 'plan.abandoned' && e.bot === 'first') && Date.now() < deadline) await sleep(20);
      await workers.shift()!.close();
      join_('second');
      while (!events.some((e) => e.type === 'plan.ended') && Date.now() < deadline) await sleep(50);
      expect(events.filter((e) => e.type === 'plan.taken').map((e) => e.bot)).toEqual(['first', 'second']);
      for (const worker of workers.splice(0)) await worker.close(); // flushes and closes each provenance sink
      const steps = (bot: string) => exporters.get(bot)!.getFinishedSpans().filter((span) => span.name === 'step dig').map((span) => span.attributes['sinew.step.id']);
      expect(steps('first')).toContain('a');
      expect(steps('second')).toContain('c');
      const spans = [...exporters.values()].flatMap((exporter) => exporter.getFinishedSpans());
      expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([traceParent.split('-')[1]]));
      // Each worker's intent span hangs under the job's remote parent.
      const intents = spans.filter((span) => span.name === 'intent trace-intent');
      expect(intents.length).toBe(2);
      for (const intent of intents) expect(intent.parentSpanContext?.spanId).toBe(traceParent.split('-')[2]);
    } finally {
      for (const worker of workers) await worker.close();
      await Promise.all([queue.close(), journal.close(), redis.quit(), ...providers.map((provider) => provider.shutdown())]);
    }
  });
});
