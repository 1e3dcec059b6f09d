import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { createExecutor, createMemoryProvenance } from '../src/index.js';
import { digBlock, fakeBody, registryWith } from './fake-body.js';

// Outcomes and provenance records are built in one literal on the common path and field by field otherwise: both
// give the same key order, which is what a JSONL sink writes and a consumer's `Object.keys` sees.
const OUTCOME = ['planId', 'stepId', 'verb', 'status', 'attempts', 'startedAt', 'endedAt', 'capability', 'failure', 'ttfaMs', 'observables'];
const RECORD = ['intentId', 'planId', 'stepId', 'verb', 'attempts', 'preemptions', 'trace', 'traceDropped', 'failures', 'outcome', 'capability', 'args', 'idempotencyKey', 'acceptance', 'preemptReason', 'provenanceRef', 'configHash'];

/** `keys` in the canonical order, filtered to the ones present. */
const inOrder = (canonical: readonly string[], keys: readonly string[]) => canonical.filter((k) => keys.includes(k));

describe('outcome and provenance record shape', () => {
  it('keeps one key order whether a step succeeded, was refused by its guard, or carries a config hash', async () => {
    const memory = createMemoryProvenance();
    const executor = createExecutor({ registry: registryWith(digBlock), body: fakeBody(), clock: new ManualClock(), provenance: memory });
    const dig = (stepId: string, block: string) => ({ stepId, type: 'dig_block', args: { block } });
    const first = await executor.run({ planId: 'shape-1', intentId: 'i', steps: [dig('ok', 'log_1'), dig('refused', 'log_1')] });
    const second = await executor.run({ planId: 'shape-2', intentId: 'i', configHash: 'cfg-7', steps: [dig('hashed', 'log_2')] });
    const outcomes = [...first.steps, ...second.steps];
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'failed', 'succeeded']);
    expect(Object.keys(outcomes[0]!)).toEqual(['planId', 'stepId', 'verb', 'status', 'attempts', 'startedAt', 'endedAt', 'capability', 'ttfaMs']);
    expect(Object.keys(outcomes[1]!)).toContain('failure');
    for (const outcome of outcomes) expect(Object.keys(outcome)).toEqual(inOrder(OUTCOME, Object.keys(outcome)));
    const records = memory.records();
    expect(records.map((r) => [r.stepId, r.configHash])).toEqual([['ok', undefined], ['refused', undefined], ['hashed', 'cfg-7']]);
    expect(Object.keys(records[0]!)).toEqual(RECORD.slice(0, 14));
    expect(Object.keys(records[2]!)).toEqual([...RECORD.slice(0, 14), 'configHash']);
    for (const record of records) expect(Object.keys(record)).toEqual(inOrder(RECORD, Object.keys(record)));
  });
});
