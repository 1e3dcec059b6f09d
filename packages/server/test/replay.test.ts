import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Executor } from '@sinew/bt-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, ServerOptionsError } from '../src/index.js';
import { parseRecording, RecordingError } from '../src/inspector/page/recording.js';
import { serveRecording } from '../src/replay/serve.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, http } from './helpers.js';

const launcher = fileURLToPath(new URL('../bin/sinew-inspect.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sinew-replay-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Written the way a hand-edited or torn file looks: CRLF, blank lines, a half-written last line. */
const PROVENANCE = [
  '{"intentId":"i","planId":"p1","stepId":"b","verb":"craft_item","capability":"craft_item@1.0.0","attempts":2,"preemptions":0,"traceDropped":0,"failures":[{"code":"stuck","reason":"no progress","retryable":true},{"code":"precond_missing","reason":"no sticks","retryable":false,"missing":["has_item:stick:2"]}],"outcome":{"planId":"p1","stepId":"b","verb":"craft_item","status":"failed","attempts":2,"startedAt":2000,"endedAt":2600,"failure":{"code":"precond_missing","reason":"no sticks","retryable":false,"missing":["has_item:stick:2"]}},"trace":[]}',
  '',
  '{"intentId":"i","planId":"p1","stepId":"a","verb":"gather","attempts":1,"preemptions":0,"traceDropped":0,"failures":[],"outcome":{"planId":"p1","stepId":"a","verb":"gather","status":"succeeded","attempts":1,"startedAt":1000,"endedAt":1900},"trace":[{"atMs":5,"kind":"transition","name":"root/action:Find[0]","detail":"running"},{"atMs":7,"kind":"command","name":"dig"},{"atMs":9,"kind":"transition","name":"root/action:Find[0]","detail":"succeeded"}]}',
  '{"intentId":"i","planId":"p1","stepId":"c","verb":"chat"',
].join('\r\n');

describe('parseRecording: a recorded run as stream events', () => {
  it('reads provenance in time order: plan start, the gather step with its node transitions, the retry, the failure, the plan end', () => {
    const recording = parseRecording(PROVENANCE);
    expect(recording.kind).toBe('provenance');
    expect(recording.skipped).toBe(1);
    expect(recording.events.map((e) => `${e.type}${e.data.stepId ? ` ${String(e.data.stepId)}` : ''}`)).toEqual([
      'plan.started',
      'step.dispatched a',
      'bt.transition a',
      'bt.transition a',
      'step.succeeded a',
      'step.dispatched b',
      'step.retry b',
      'step.failed b',
      'executionComplete',
    ]);
    const transitions = recording.events.filter((e) => e.type === 'bt.transition').map((e) => `${String(e.data.from)}→${String(e.data.to)}@${e.ts}`);
    expect(transitions).toEqual(['ready→running@1005', 'running→succeeded@1009']);
    expect(recording.events.at(-1)?.data).toMatchObject({ planId: 'p1', status: 'failed', failure: { code: 'precond_missing' } });
    expect(recording.events.map((e) => e.seq)).toEqual(recording.events.map((_, i) => i + 1));
  });

  it('reads a journal: the plan generated and started, each step outcome, the plan end; foreign lines are counted, not played', () => {
    const journal = [
      JSON.stringify({ kind: 'plan_start', at: 10, plan: { planId: 'j', intentId: 'x', steps: [{ stepId: 's', type: 'chat', args: {} }, { stepId: 't', type: 'chat', args: {} }] } }),
      JSON.stringify({ kind: 'step', at: 30, key: 'j:s', outcome: { planId: 'j', stepId: 's', verb: 'chat', status: 'succeeded', attempts: 1, startedAt: 11, endedAt: 29 } }),
      '["not", "a", "record"]',
      JSON.stringify({ v: 1, seq: 3, ts: 1, type: 'botEvent', data: {} }),
      JSON.stringify({ kind: 'plan_end', at: 40, planId: 'j', status: 'aborted' }),
    ].join('\n');
    const recording = parseRecording(journal);
    expect(recording.kind).toBe('journal');
    expect(recording.skipped).toBe(2);
    expect(recording.events.map((e) => e.type)).toEqual(['planGenerated', 'plan.started', 'step.dispatched', 'step.succeeded', 'executionComplete']);
    expect(recording.events[1]?.data.steps).toBe(2);
  });

  it('reads a record file: the header gives the trees, stream.hello lines are not played', () => {
    const text = [
      JSON.stringify({ v: 1, seq: 0, ts: 5, type: 'recording.started', data: { epoch: 'e1', trees: { gather: ['root', 'root/action:Find[0]'] } } }),
      JSON.stringify({ v: 1, seq: 0, ts: 6, type: 'stream.hello', data: {} }),
      JSON.stringify({ v: 1, seq: 1, ts: 7, type: 'step.dispatched', data: { planId: 'p', stepId: 's' } }),
    ].join('\n');
    const recording = parseRecording(text);
    expect(recording).toMatchObject({ kind: 'events', trees: { gather: ['root', 'root/action:Find[0]'] }, skipped: 0 });
    expect(recording.events.map((e) => e.type)).toEqual(['step.dispatched']);
  });

  it('refuses text with no JSON line, or whose first object is of no known kind, saying what was expected', () => {
    expect(() => parseRecording('\n  \nnot json\n')).toThrow(RecordingError);
    expect(() => parseRecording('{"planId":"p","steps":[]}')).toThrow(/journal record \(\{ kind \}\)/);
  });
});

describe('serveSinew({ record })', () => {
  let executor: Executor<Body>;
  beforeAll(() => void ({ executor } = fakeExecutor()));
  afterAll(async () => executor.close());

  it('appends a header and every published event to the file, one envelope per line', async () => {
    const file = join(dir, 'nested', 'run.events.jsonl');
    const server = await serveSinew({ executor, port: 0, record: file });
    server.planGenerated({ intentId: 'i1', planner: 'test', plan: { steps: [] } });
    server.planGenerated({ intentId: 'i2', planner: 'test', plan: { steps: [] } });
    await server.close();
    server.planGenerated({ intentId: 'late', planner: 'test', plan: { steps: [] } }); // after close: not written, no error
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { seq: number; type: string; data: { intentId?: string; epoch?: string } });
    expect(lines.map((l) => [l.seq, l.type, l.data.intentId])).toEqual([
      [0, 'recording.started', undefined],
      [1, 'planGenerated', 'i1'],
      [2, 'planGenerated', 'i2'],
    ]);
    expect(lines[0]?.data.epoch).toBe(server.epoch);
  });

  it('refuses an empty path, a non-string and a path it cannot open before listening', async () => {
    await expect(serveSinew({ executor, port: 0, record: '' })).rejects.toThrow(/record/);
    await expect(serveSinew({ executor, port: 0, record: 42 as never })).rejects.toThrow(/record/);
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'x');
    const unopenable = serveSinew({ executor, port: 0, record: join(blocked, 'under-a-file.jsonl') });
    await expect(unopenable).rejects.toBeInstanceOf(ServerOptionsError);
    await expect(unopenable).rejects.toThrow(/cannot open/);
    await expect(serveSinew({ executor, port: 0, recording: 'x' } as never)).rejects.toThrow(/unknown option "recording"/);
  });
});

describe('serveRecording and the sinew-inspect bin', () => {
  it('serves the file at /api/recording on loopback, refuses other hosts and a non-loopback bind', async () => {
    const file = join(dir, 'prov.jsonl');
    writeFileSync(file, PROVENANCE);
    const served = await serveRecording({ file });
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#replay$/);
      expect(served.recording).toEqual({ kind: 'provenance', events: 9, skipped: 1 });
      const answer = await http(served.url, '/api/recording');
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(PROVENANCE);
      expect((await http(served.url, '/api/recording', { headers: { host: 'evil.example' } })).status).toBe(421);
      expect((await http(served.url, '/api/recording', { method: 'POST' })).status).toBe(405);
    } finally {
      await served.close();
    }
    await expect(serveRecording({ file, host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    await expect(serveRecording({ file: join(dir, 'missing.jsonl') })).rejects.toThrow(/ENOENT/);
  });

  it('prints the inspector URL for a file and exits 0 on SIGTERM; exits 1 on a file of no known kind, 2 on bad usage', async () => {
    const file = join(dir, 'cli.jsonl');
    writeFileSync(file, PROVENANCE);
    const run = await runCli([file], (out) => /inspector (http:\S+)/.test(out));
    expect(run.stdout).toContain('(provenance, 9 events, 1 lines skipped)');
    const url = /inspector (http:\S+)/.exec(run.stdout)![1]!;
    expect(run.answered).toBe(200);
    expect(url).toMatch(/#replay$/);
    expect(run.code).toBe(0);
    writeFileSync(join(dir, 'odd.jsonl'), '{"hello":"world"}\n');
    const odd = await runCli([join(dir, 'odd.jsonl')]);
    expect(odd.code).toBe(1);
    expect(odd.stderr).toContain('the first line is not an event envelope');
    const usage = await runCli([file, '--port', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--port takes a number');
  });
});

/** Runs the bin; once `ready(stdout)`, fetches /api/recording from the printed URL and sends SIGTERM. */
function runCli(args: string[], ready?: (stdout: string) => boolean): Promise<{ code: number | null; stdout: string; stderr: string; answered?: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [launcher, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let answered: number | undefined;
    let asked = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (asked || !ready?.(stdout)) return;
      asked = true;
      const url = /inspector (http:\S+)/.exec(stdout)![1]!;
      void http(url, '/api/recording').then((answer) => {
        answered = answer.status;
        child.kill('SIGTERM');
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, ...(answered === undefined ? {} : { answered }) }));
  });
}
