import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { accepted, ManualClock, type RepairHook } from '@sinew/executor-contracts';
import { createOtelProvenance } from '@sinew/bt-runtime/otel';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';

const T0 = 1_700_000_000_000;

/** Fails its first attempt (runner_error), succeeds on the second after one actuator command. */
function flakyOnce() {
  let tries = 0;
  return defineFake({
    name: 'flaky_once',
    version: '2.1.0',
    description: 'fails once',
    inputSchema: z.object({}),
    run: async (ctx) => {
      tries += 1;
      ctx.body.chat(`try ${tries}`);
      return tries === 1 ? { ok: false, reason: 'no luck' } : undefined;
    },
    acceptance: () => accepted,
  });
}

/** Never acts: every attempt trips TTFA, so the executor asks the repair hook. */
const silent = defineFake({
  name: 'silent',
  version: '1.0.0',
  description: 'never acts',
  inputSchema: z.object({}),
  run: (ctx) => new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true })),
  acceptance: () => accepted,
});

const repair: RepairHook = { repair: ({ step }) => (step.stepId !== 's2' ? undefined : { steps: [{ stepId: 'alt', type: 'dig_block', args: { block: 'log_2' } }], replace: true, reason: 'dig instead' }) };

/** Runs plan p1 (s2 retried, then repaired) and plan p2 (f1 retried, then a guard failure) of intent i1 through `sink`. */
async function runScenario(sink: ReturnType<typeof createOtelProvenance>) {
  const clock = new ManualClock(T0);
  const executor = createExecutor({ registry: registryWith(digBlock, flakyOnce(), silent), body: fakeBody(), clock, provenance: sink, repair, policy: { maxLocalRetries: 1, backoff: { initialMs: 100 } } });
  const first = executor.run({ planId: 'p1', intentId: 'i1', steps: [{ stepId: 's1', type: 'dig_block', args: { block: 'log_1' } }, { stepId: 's2', type: 'silent' }] });
  await clock.advance(5000);
  const p1 = await first;
  const second = executor.run({ planId: 'p2', intentId: 'i1', steps: [{ stepId: 'f1', type: 'flaky_once' }, { stepId: 'g1', type: 'dig_block', args: { block: 'log_1' } }] });
  await clock.advance(5000);
  const p2 = await second;
  await executor.close();
  return { p1, p2 };
}

const ms = (time: readonly [number, number]) => time[0] * 1000 + time[1] / 1e6;

describe('createOtelProvenance', () => {
  it('exports intent → plan → step → attempt spans with codes, TTFA and record timestamps (in-memory exporter)', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { p1, p2 } = await runScenario(createOtelProvenance({ provider }));
    expect([p1.status, p2.status]).toEqual(['completed', 'failed']);
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const one = (name: string): ReadableSpan => {
      expect(byName(name)).toHaveLength(1);
      return byName(name)[0]!;
    };
    const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
    const intent = one('intent i1');
    expect(parentOf(intent)).toBeUndefined();
    const plans = [one('plan p1'), one('plan p2')];
    for (const plan of plans) expect(parentOf(plan)).toBe(intent.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);

    const steps = spans.filter((s) => s.name.startsWith('step '));
    expect(steps.map((s) => [s.attributes['sinew.step.id'], s.attributes['sinew.status'], s.attributes['sinew.error.code'] ?? null, parentOf(s) === plans[s.attributes['sinew.plan.id'] === 'p1' ? 0 : 1]!.spanContext().spanId])).toEqual([
      ['s1', 'succeeded', null, true],
      ['s2', 'failed', 'ttfa_exceeded', true],
      ['alt', 'succeeded', null, true],
      ['f1', 'succeeded', null, true],
      ['g1', 'failed', 'guard_failed', true],
    ]);
    const [s1, s2, , f1, g1] = steps;
    expect(s1!.attributes).toMatchObject({ 'sinew.capability': 'dig_block@1.0.0', 'sinew.attempts': 1, 'sinew.ttfa_ms': 0, 'sinew.idempotency_key': 'p1:s1' });
    expect(s1!.status.code).toBe(SpanStatusCode.OK);
    expect(s1!.events.map((e) => e.name)).toEqual(['command dig']);
    expect(s2!.attributes).toMatchObject({ 'sinew.capability': 'silent@1.0.0', 'sinew.error.retryable': true, 'sinew.attempts': 2, 'sinew.duration_ms': 4100 });
    expect(s2!.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/^ttfa_exceeded: /) });
    expect(g1!.status.code).toBe(SpanStatusCode.ERROR);
    // Timestamps are the records' clock times (ManualClock from T0), not the wall clock.
    expect(ms(s2!.startTime) - T0).toBe(ms(s1!.endTime) - T0);
    expect(ms(s2!.endTime) - ms(s2!.startTime)).toBe(4100);
    expect(ms(intent.startTime)).toBe(T0);
    expect(ms(intent.endTime)).toBe(ms(g1!.endTime));

    // f1 retried once: attempt 1 failed (runner_error, retryable), attempt 2 succeeded.
    expect(f1!.attributes).toMatchObject({ 'sinew.capability': 'flaky_once@2.1.0', 'sinew.attempts': 2 });
    const attempts = spans.filter((s) => s.name.startsWith('attempt ') && parentOf(s) === f1!.spanContext().spanId);
    expect(attempts.map((a) => [a.name, a.attributes['sinew.status'], a.attributes['sinew.error.code'] ?? null, a.attributes['sinew.error.retryable'] ?? null, a.status.code])).toEqual([
      ['attempt 1', 'failed', 'runner_error', true, SpanStatusCode.ERROR],
      ['attempt 2', 'succeeded', null, null, SpanStatusCode.OK],
    ]);
  });

  it('keeps at most maxOpenIntents intent spans open, ending the oldest; close ends the rest', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const clock = new ManualClock(T0);
    const executor = createExecutor({ registry: registryWith(digBlock), body: fakeBody(), clock, provenance: createOtelProvenance({ provider, maxOpenIntents: 1 }) });
    const finished = () => exporter.getFinishedSpans().map((s) => s.name).filter((n) => n.startsWith('intent ') || n.startsWith('plan '));
    await executor.run({ planId: 'p1', intentId: 'a', steps: [{ stepId: 's1', type: 'dig_block', args: { block: 'log_1' } }] });
    expect(finished()).toEqual(['plan p1']);
    await executor.run({ planId: 'p2', intentId: 'b', steps: [{ stepId: 's1', type: 'dig_block', args: { block: 'log_2' } }] });
    expect(finished()).toEqual(['plan p1', 'intent a', 'plan p2']);
    await executor.close();
    expect(finished()).toEqual(['plan p1', 'intent a', 'plan p2', 'intent b']);
    expect(() => createOtelProvenance({ maxOpenIntents: 0 })).toThrow(/maxOpenIntents/);
  });

  it('sends the spans as OTLP/HTTP JSON to a receiver on 127.0.0.1', async () => {
    const bodies: { path: string; contentType: string; body: OtlpBody }[] = [];
    const server = createServer((req, res) => {
      void readBody(req).then((text) => {
        bodies.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: JSON.parse(text) as OtlpBody });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const exporter = new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` });
      const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      // executor.close() closes the sink, which force-flushes the provider: every export has landed.
      await runScenario(createOtelProvenance({ provider }));
      expect(bodies.length).toBeGreaterThan(0);
      expect(new Set(bodies.map((b) => `${b.path} ${b.contentType}`))).toEqual(new Set(['/v1/traces application/json']));
      const spans = bodies.flatMap((b) => b.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      const names = spans.map((s) => s.name).sort();
      expect(names.filter((n) => !n.startsWith('attempt '))).toEqual(['intent i1', 'plan p1', 'plan p2', 'step dig_block', 'step dig_block', 'step dig_block', 'step flaky_once', 'step silent']);
      const intent = spans.find((s) => s.name === 'intent i1')!;
      const plan = spans.find((s) => s.name === 'plan p1')!;
      expect(plan.parentSpanId).toBe(intent.spanId);
      const silentStep = spans.find((s) => s.name === 'step silent')!;
      expect(silentStep.parentSpanId).toBe(plan.spanId);
      const attr = (key: string) => silentStep.attributes.find((a) => a.key === key)?.value;
      expect(attr('sinew.capability')).toEqual({ stringValue: 'silent@1.0.0' });
      expect(attr('sinew.error.code')).toEqual({ stringValue: 'ttfa_exceeded' });
      expect(silentStep.status).toMatchObject({ code: SpanStatusCode.ERROR });
      expect(BigInt(silentStep.endTimeUnixNano) - BigInt(silentStep.startTimeUnixNano)).toBe(4100n * 1_000_000n);
      await provider.shutdown();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code?: number };
}
interface OtlpBody {
  resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
