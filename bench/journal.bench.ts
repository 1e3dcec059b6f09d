// The plan journal: opening a 300,000-step history (issue 28: ≤ 0.5 s and ≤ 20 MiB of heap). The history is written
// through the executor's journal with compaction (finished plans folded away), then opened; the baseline is the same
// 300,000 records as one uncompacted file (what a journal grew to before compaction), parsed the same way.
import { ManualClock } from '@sinew/executor-contracts';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createJsonlJournal, type JournalRecord } from '@sinew/bt-runtime';
import { PlanJournal } from '../packages/bt-runtime/src/journal/journal.js';
import { compare, record, runMain } from './harness.js';

const STEPS = 300_000;
const PER_PLAN = 50;
const CAPACITY = 10_000; // the executor's default idempotency capacity
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const clock = new ManualClock();

const outcome = (planId: string, stepId: string) => ({ planId, stepId, verb: 'dig_block', capability: { name: 'dig_block', version: '1.0.0' }, status: 'succeeded' as const, attempts: 1, startedAt: 0, endedAt: 12, ttfaMs: 3 });
const plan = (planId: string) => ({ planId, intentId: 'i', steps: Array.from({ length: PER_PLAN }, (_, s) => ({ stepId: `s${s}`, type: 'dig_block', args: { x: s, y: 64, z: -s } })) });
const open = (file: string) => new PlanJournal(createJsonlJournal(file, { fsync: false }), clock, silent, { capacity: CAPACITY });

/** Writes the history through the journal (compacting as it goes); returns the file's record count. */
function writeCompacted(file: string): void {
  const journal = open(file);
  for (let p = 0; p < STEPS / PER_PLAN; p += 1) {
    const planId = `plan-${p}`;
    journal.planStarted(plan(planId), undefined);
    for (let s = 0; s < PER_PLAN; s += 1) journal.stepEnded(`${planId}:s${s}`, outcome(planId, `s${s}`));
    journal.planEnded({ planId, intentId: 'i', status: 'completed', steps: [], repairs: 0, startedAt: 0, endedAt: 0 });
  }
}

/** The same history as one file, never compacted. */
function writeFull(file: string): void {
  const lines: string[] = [];
  for (let p = 0; p < STEPS / PER_PLAN; p += 1) {
    const planId = `plan-${p}`;
    const records: JournalRecord[] = [
      { kind: 'plan_start', at: 0, plan: plan(planId) },
      ...Array.from({ length: PER_PLAN }, (_, s): JournalRecord => ({ kind: 'step', at: 0, key: `${planId}:s${s}`, outcome: outcome(planId, `s${s}`) })),
      { kind: 'plan_end', at: 0, planId, status: 'completed' },
    ];
    for (const r of records) lines.push(JSON.stringify(r));
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

function timedOpen(file: string): number {
  const start = performance.now();
  open(file);
  return performance.now() - start;
}

/** Heap retained by an open journal, MiB (after a full GC on both sides). */
function heapOf(file: string): number {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  const journal = open(file);
  globalThis.gc?.();
  const after = process.memoryUsage().heapUsed;
  if ([...journal.completed()].length !== CAPACITY) throw new Error('the journal lost live keys');
  return (after - before) / 2 ** 20;
}

runMain(async () => {
  if (!globalThis.gc) throw new Error('run with --expose-gc (npm run bench does)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-journal-bench-'));
  try {
    const compacted = path.join(dir, 'compacted.jsonl');
    const writeStart = performance.now();
    writeCompacted(compacted);
    const writeMs = performance.now() - writeStart;
    const full = path.join(dir, 'full.jsonl');
    writeFull(full);
    const mib = (f: string) => (fs.statSync(f).size / 2 ** 20).toFixed(1);
    console.log(`${STEPS} steps in ${STEPS / PER_PLAN} plans: written with compaction in ${writeMs.toFixed(0)} ms (${mib(compacted)} MiB on disk) vs ${mib(full)} MiB uncompacted`);
    // Each open of the uncompacted file compacts it: copy it fresh for every round.
    const fresh = () => (fs.copyFileSync(full, path.join(dir, 'round.jsonl')), path.join(dir, 'round.jsonl'));
    await compare({ figure: 'journal open, 300k-step history', unit: 'ms', rounds: 5, run: () => timedOpen(compacted), baseline: () => timedOpen(fresh()), target: { value: 500 }, digits: 1 });
    record({ figure: 'journal open heap, 300k-step history', unit: 'MiB', values: [1, 2, 3].map(() => heapOf(compacted)), baselines: [heapOf(fresh())], target: { value: 20 }, digits: 1 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
