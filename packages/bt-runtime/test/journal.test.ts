import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { accepted, ManualClock } from '@sinew/executor-contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createJsonlJournal, createMemoryJournal, createMemoryProvenance, parseJournal, type JournalStore } from '../src/index.js';
import { craftItem, defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-journal-'));
  dirs.push(dir);
  return path.join(dir, 'plan.jsonl');
};

let drops = 0;
/** The first time it runs the connection drops mid-step; after that it digs. */
const digThenDrop = defineFake({
  name: 'dig_then_drop',
  version: '1.0.0',
  description: 'the connection drops mid-dig once',
  inputSchema: z.object({ block: z.string() }),
  guard: ({ body }, { block }) => (body.blocks.has(block) ? { ok: true } : { ok: false, code: 'guard_failed', reason: `no block ${block}` }),
  run: async (ctx, { block }) => {
    if (drops++ > 0) return void ctx.body.dig(block);
    ctx.body.move(1);
    ctx.body.disconnect('kicked');
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  },
  acceptance: () => accepted,
});

const plan = {
  planId: 'p1',
  intentId: 'i1',
  steps: [
    { stepId: 's1', type: 'dig_block', args: { block: 'log_1' } },
    { stepId: 's2', type: 'dig_block', args: { block: 'log_2' } },
    { stepId: 's3', type: 'craft_item', args: { item: 'planks' } },
  ],
};

function start(journal: JournalStore, body = fakeBody()) {
  const provenance = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(digBlock, craftItem, digThenDrop), body, clock: new ManualClock(), journal, provenance });
  return { executor, body, provenance };
}

describe('plan journal', () => {
  it('journals plan start, every step outcome and plan end', async () => {
    const journal = createMemoryJournal();
    const outcome = await start(journal).executor.run(plan);
    expect(outcome.status).toBe('completed');
    expect(journal.records.map((r) => (r.kind === 'step' ? `step:${r.key}:${r.outcome.status}` : r.kind))).toEqual(['plan_start', 'step:p1:s1:succeeded', 'step:p1:s2:succeeded', 'step:p1:s3:succeeded', 'plan_end']);
  });

  it('a new executor on the same journal answers finished steps from it and re-runs only the interrupted one', async () => {
    const journal = createMemoryJournal();
    const first = start(journal);
    const interrupted = { ...plan, steps: [plan.steps[0]!, { stepId: 's2', type: 'dig_then_drop', args: { block: 'log_2' } }, plan.steps[2]!] };
    const dropped = await first.executor.run(interrupted);
    expect(dropped.failure?.code).toBe('body_disconnected');
    expect(first.body.calls).toEqual(['dig:log_1', 'move:1']);
    // The world the restarted process finds: what the first one did stays done.
    const body = fakeBody();
    body.blocks = new Set(first.body.blocks);
    body.inventory = { ...first.body.inventory };
    const second = start(journal, body);
    const resumed = await second.executor.resume();
    expect(resumed?.status).toBe('completed');
    expect(body.calls).toEqual(['dig:log_2', 'craft:planks']);
    expect(resumed?.steps.map((s) => [s.stepId, s.status, s.failure?.code])).toEqual([
      ['s1', 'succeeded', 'duplicate'],
      ['s2', 'succeeded', undefined],
      ['s3', 'succeeded', undefined],
    ]);
    expect(await second.executor.resume()).toBeUndefined();
  });

  it('a re-sent finished plan dispatches nothing again after a restart', async () => {
    const journal = createMemoryJournal();
    await start(journal).executor.run(plan);
    const again = start(journal);
    const outcome = await again.executor.run(plan);
    expect(outcome.status).toBe('completed');
    expect(again.body.calls).toEqual([]);
    expect(outcome.steps.every((s) => s.failure?.code === 'duplicate')).toBe(true);
  });

  it('the JSONL file skips and counts a torn last line, and the next record still lands on its own line', async () => {
    const file = tempFile();
    await start(createJsonlJournal(file)).executor.run({ ...plan, steps: plan.steps.slice(0, 1) });
    fs.appendFileSync(file, '{"kind":"step","at":0,"key":"p1:s2","outc');
    expect(parseJournal(fs.readFileSync(file, 'utf8')).skipped).toBe(1);
    const store = createJsonlJournal(file);
    store.append({ kind: 'plan_end', at: 1, planId: 'other', status: 'completed' });
    const read = store.readAll();
    expect(read.skipped).toBe(1);
    expect(read.records.map((r) => r.kind)).toEqual(['plan_start', 'step', 'plan_end', 'plan_end']);
  });

  it('an asynchronous shared store: the plan ends after every record resolved, a key another process completed is not dispatched, a refused claim ends the plan journal_unavailable', async () => {
    const other = createMemoryJournal();
    await start(other).executor.run({ ...plan, steps: plan.steps.slice(0, 1) });
    const completedElsewhere = new Map(other.records.flatMap((r) => (r.kind === 'step' ? [[r.key, r.outcome] as const] : [])));
    const landed: string[] = [];
    const refuse = new Set<string>();
    const claimed: unknown[] = [];
    const shared: JournalStore = {
      append: async (record) => {
        await new Promise((resolve) => setImmediate(resolve));
        landed.push(record.kind === 'step' ? record.key : record.kind);
      },
      readAll: () => ({ records: [], skipped: 0 }),
      claim: async (key, step) => {
        claimed.push(step);
        if (refuse.has(key)) throw new Error('fenced: the plan passed to another owner');
        return completedElsewhere.get(key);
      },
    };
    const { executor, body } = start(shared);
    const outcome = await executor.run(plan);
    expect(outcome.steps.map((s) => [s.stepId, s.status, s.failure?.code])).toEqual([
      ['s1', 'succeeded', 'duplicate'],
      ['s2', 'succeeded', undefined],
      ['s3', 'succeeded', undefined],
    ]);
    expect(body.calls).toEqual(['dig:log_2', 'craft:planks']);
    expect(landed).toEqual(['plan_start', 'p1:s2', 'p1:s3', 'plan_end']);
    // The store is told which step it is asked about (its canonical verb and parsed args): enough to check the world.
    expect(claimed[1]).toEqual({ planId: 'p1', stepId: 's2', verb: plan.steps[1]!.type, args: plan.steps[1]!.args });
    refuse.add('p2:s1');
    const refused = await executor.run({ ...plan, planId: 'p2', steps: [{ stepId: 's1', type: 'dig_block', args: { block: 'log_3' } }] });
    expect([refused.status, refused.failure?.code]).toEqual(['failed', 'journal_unavailable']);
    expect(body.calls).toEqual(['dig:log_2', 'craft:planks']);
    expect(landed.at(-1)).toBe('plan_start');
  });

  it('a record that fails the schema is skipped, not trusted', () => {
    const read = parseJournal('{"kind":"step","at":0,"key":"k","outcome":{"status":"succeeded"}}\n{"kind":"plan_end","at":0,"planId":"p","status":"completed","extra":1}\n');
    expect(read).toEqual({ records: [], skipped: 2 });
  });
});
