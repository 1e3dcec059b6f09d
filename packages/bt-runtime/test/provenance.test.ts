import { ManualClock } from '@sinew/executor-contracts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCallbackProvenance, createExecutor, createJsonlProvenance, createMemoryProvenance, type ProvenanceRecord } from '../src/index.js';
import { digBlock, fakeBody, registryWith } from './fake-body.js';

const plan = { planId: 'p1', intentId: 'intent-wood', steps: [{ stepId: 's1', type: 'dig_block', args: { block: 'log_1' } }, { stepId: 's2', type: 'dig_block', args: { block: 'log_1' } }] };

describe('provenance', () => {
  it('records one step: intent → plan → step → capability@version → actuator trace → acceptance → outcome', async () => {
    const memory = createMemoryProvenance();
    const executor = createExecutor({ registry: registryWith(digBlock), body: fakeBody(), clock: new ManualClock(), provenance: memory });
    await executor.run(plan);
    const [first, second] = memory.records();
    expect(first).toMatchObject({
      intentId: 'intent-wood',
      planId: 'p1',
      stepId: 's1',
      verb: 'dig_block',
      capability: 'dig_block@1.0.0',
      args: { block: 'log_1' },
      idempotencyKey: 'p1:s1',
      attempts: 1,
      trace: [{ atMs: 0, kind: 'command', name: 'dig', detail: '"log_1"' }],
      acceptance: { ok: true },
      outcome: { status: 'succeeded' },
    });
    expect(second).toMatchObject({ stepId: 's2', failures: [{ code: 'guard_failed' }], outcome: { status: 'failed' } });
  });

  it('the memory ring keeps only the last `capacity` records', async () => {
    const memory = createMemoryProvenance({ capacity: 1 });
    const executor = createExecutor({ registry: registryWith(digBlock), body: fakeBody(), provenance: memory });
    await executor.run(plan);
    expect(memory.records().map((r) => r.stepId)).toEqual(['s2']);
    expect(() => createMemoryProvenance({ capacity: 0 })).toThrow(/capacity/);
  });

  it('JSONL appends one line per step, flushed when the plan ends; callbacks see every record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sinew-prov-'));
    try {
      const path = join(dir, 'nested', 'provenance.jsonl');
      const seen: ProvenanceRecord[] = [];
      const executor = createExecutor({
        registry: registryWith(digBlock),
        body: fakeBody(),
        provenance: [createJsonlProvenance({ path }), createCallbackProvenance((r) => seen.push(r)), createCallbackProvenance(() => { throw new Error('broken sink'); })],
      });
      await executor.run(plan);
      const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as ProvenanceRecord);
      expect(lines.map((l) => `${l.planId}/${l.stepId}:${l.outcome.status}`)).toEqual(['p1/s1:succeeded', 'p1/s2:failed']);
      expect(seen).toHaveLength(2);
      // Appended, not rewritten: p2 stops at its first step (log_1 is gone now).
      await executor.run({ ...plan, planId: 'p2' });
      expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(3);
      await executor.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('JSONL: a failed write reports to that flush, keeps its lines, and later flushes write them all', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sinew-prov-'));
    try {
      // The sink's folder is a plain file at first, so the first write fails.
      const blocker = join(dir, 'logs');
      await writeFile(blocker, 'not a folder');
      const sink = createJsonlProvenance({ path: join(blocker, 'provenance.jsonl') });
      const line = (stepId: string) => ({ stepId }) as unknown as ProvenanceRecord;
      sink.write(line('a'));
      await expect(sink.flush!()).rejects.toThrow();
      await rm(blocker);
      sink.write(line('b'));
      await sink.flush!();
      sink.write(line('c'));
      await sink.flush!();
      const lines = (await readFile(sink.path, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { stepId: string }).stepId);
      expect(lines).toEqual(['a', 'b', 'c']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
