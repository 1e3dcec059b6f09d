import { accepted, ManualClock, type RepairHook } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics } from '../src/index.js';
import { createMemoryJournal, type JournalRecord } from '../src/journal/records.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// The executor over a journal that refuses a write (a full disk): a plan whose start cannot be journaled does not
// run; a step whose record did not land ends the plan journal_unavailable before its next step; each refusal is an
// event and a count. And the repair hook is not asked about a failure no new plan could fix. Manual clock, fake body.

const tick = defineFake({ name: 'tick', version: '1.0.0', description: 'one chat line', inputSchema: z.strictObject({ n: z.number() }), run: async (ctx, { n }) => ctx.body.chat(`tick ${n}`), acceptance: () => accepted });

/** A memory journal whose appends of `refused` kinds throw like a full disk. */
function refusingJournal(refused: JournalRecord['kind'][]) {
  const store = createMemoryJournal();
  const append = store.append;
  return Object.assign(store, {
    append: (record: JournalRecord) => {
      if (refused.includes(record.kind)) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return append(record);
    },
  });
}

function setup(refused: JournalRecord['kind'][], repair?: RepairHook) {
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const executor = createExecutor({ registry: registryWith(tick), body, clock: new ManualClock(), metrics, journal: refusingJournal(refused), ...(repair ? { repair } : {}) });
  const failed: unknown[] = [];
  executor.on('journal.write_failed', (e) => void failed.push(e));
  const plan = { planId: 'ticks', intentId: 'count', steps: [1, 2, 3].map((n) => ({ stepId: `t${n}`, type: 'tick', args: { n } })) };
  return { body, metrics, executor, failed, plan };
}

describe('a journal that refuses', () => {
  it('the plan’s start: nothing runs, the plan fails journal_unavailable, the refusal is an event and a count', async () => {
    const s = setup(['plan_start']);
    const outcome = await s.executor.run(s.plan);
    expect(outcome).toMatchObject({ planId: 'ticks', intentId: 'count', status: 'failed', steps: [], failure: { code: 'journal_unavailable' } });
    expect(outcome.failure!.reason).toContain('ENOSPC');
    expect(s.body.calls).toEqual([]);
    expect(s.failed).toMatchObject([{ record: 'plan_start' }]);
    expect(await metric(s.metrics.registry, 'sinew_journal_write_failures_total', { record: 'plan_start' })).toBe(1);
  });

  it('a step’s record: the step happened, the plan stops before the next one', async () => {
    const s = setup(['step']);
    const outcome = await s.executor.run(s.plan);
    expect(outcome).toMatchObject({ status: 'failed', failedStepId: 't1', failure: { code: 'journal_unavailable' } });
    expect(outcome.steps.map((o) => `${o.stepId}:${o.status}`)).toEqual(['t1:succeeded']);
    expect(s.body.calls).toEqual(['chat:tick 1']);
    expect(s.failed).toMatchObject([{ record: 'step' }]);
  });
});

describe('the repair hook', () => {
  it('is not asked about a guard that refused the step', async () => {
    let asked = 0;
    const guarded = defineFake({ name: 'guarded', version: '1.0.0', description: 'never allowed', inputSchema: z.strictObject({}), guard: () => ({ ok: false, code: 'guard_failed', reason: 'not today' }), run: async () => {}, acceptance: () => accepted });
    const executor = createExecutor({ registry: registryWith(guarded), body: fakeBody(), clock: new ManualClock(), repair: { repair: () => ((asked += 1), undefined) } });
    const outcome = await executor.run({ planId: 'g', intentId: 'i', steps: [{ stepId: 'g1', type: 'guarded', args: {} }] });
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'guard_failed', reason: 'not today' } });
    expect(asked).toBe(0);
  });
});
