import { ManualClock } from '@sinew/executor-contracts';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createJsonlJournal, JournalWriteError, parseJournal, type JournalRecord } from '../src/index.js';
import { PlanJournal } from '../src/journal/journal.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const child = fileURLToPath(new URL('./fixtures/journal-full-child.ts', import.meta.url));
const run = promisify(execFile);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-durable-'));
  dirs.push(dir);
  return dir;
};

interface ChildReport {
  status: string;
  code?: string;
  failedStepId?: string;
  steps: number;
  failed: string[];
  failures: number;
}

/** The child plan in a real process; `limitKiB` sets the file-size limit (RLIMIT_FSIZE) its writes run into. */
async function runChild(dir: string, limitKiB?: number): Promise<ChildReport> {
  const node = `'${process.execPath}' --import tsx '${child}' '${dir}'`;
  const { stdout } = await run('bash', ['-c', limitKiB === undefined ? node : `ulimit -f ${limitKiB} && ${node}`], { cwd: root });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport;
}

describe('a journal that cannot write', () => {
  it('fails the plan journal_unavailable at the step whose record did not land, leaves no torn line, and a restart re-runs only that step', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal.jsonl');
    // 2 KiB: the plan's start and a few step records fit; then a write is cut short and the next refused (EFBIG).
    const full = await runChild(dir, 2);
    expect(full.status).toBe('failed');
    expect(full.code).toBe('journal_unavailable');
    expect(full.failed[0]).toMatch(/^step:(EFBIG|ESHORTWRITE)$/);
    expect(full.failures).toBeGreaterThanOrEqual(1);
    const failedStep = full.failedStepId!;
    // Not one step ran after the one whose record was lost.
    expect(full.steps).toBe(Number(failedStep.slice(1)));
    const afterFull = parseJournal(fs.readFileSync(journal, 'utf8'));
    expect(afterFull.skipped).toBe(0);
    expect(fs.statSync(journal).size).toBeLessThanOrEqual(2048);
    const journaled = afterFull.records.flatMap((r) => (r.kind === 'step' ? [r.key] : []));
    expect(journaled).toEqual(Array.from({ length: full.steps - 1 }, (_, n) => `full-disk:s${n + 1}`));

    // Space again: the restart resumes the plan; journaled steps are answered from the journal, the lost one runs again.
    const resumed = await runChild(dir);
    expect(resumed).toMatchObject({ status: 'completed', failures: 0 });
    const marks = fs.readFileSync(path.join(dir, 'world.log'), 'utf8').split('\n').filter(Boolean);
    const twice = marks.filter((m, i) => marks.indexOf(m) !== i);
    expect(twice).toEqual([failedStep]);
    expect(new Set(marks)).toEqual(new Set(Array.from({ length: 10 }, (_, n) => `s${n + 1}`)));
    // The records after the failure stand on their own lines.
    const final = parseJournal(fs.readFileSync(journal, 'utf8'));
    expect(final.skipped).toBe(0);
    expect(final.records.at(-1)).toMatchObject({ kind: 'plan_end', status: 'completed' });
  }, 60_000);

  it('a plan whose start cannot be journaled runs nothing', async () => {
    const dir = tempDir();
    // 1 KiB taken by an earlier history: the plan_start record no longer fits.
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), `${JSON.stringify({ kind: 'plan_end', at: 0, planId: 'old', status: 'completed' })}\n`.padEnd(1023, ' ') + '\n');
    const report = await runChild(dir, 1);
    expect(report).toMatchObject({ status: 'failed', code: 'journal_unavailable', steps: 0 });
    expect(report.failed[0]).toMatch(/^plan_start:/);
    expect(fs.existsSync(path.join(dir, 'world.log'))).toBe(false);
  }, 60_000);

  it('JournalWriteError names the file, the record and the system error', () => {
    const error = new JournalWriteError('/x/j.jsonl', 'step', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    expect(error.errno).toBe('ENOSPC');
    expect(error.message).toBe('journal /x/j.jsonl: the step record was not written (ENOSPC): no space left on device');
  });
});

describe('journal compaction', () => {
  const outcome = (key: string) => ({ planId: key.split(':')[0]!, stepId: key, verb: 'work', status: 'succeeded' as const, attempts: 1, startedAt: 0, endedAt: 1 });
  const step = (key: string, at: number): JournalRecord => ({ kind: 'step', at, key, outcome: outcome(key) });

  it('folds finished plans away: the file stays bounded by what is live, and every live key and the unfinished plan survive a reopen', () => {
    const file = path.join(tempDir(), 'plans.jsonl');
    const clock = new ManualClock();
    const capacity = 500;
    const open = () => new PlanJournal(createJsonlJournal(file, { fsync: false }), clock, silent, { capacity });
    const journal = open();
    let largest = 0;
    for (let p = 0; p < 200; p += 1) {
      const plan = { planId: `p${p}`, intentId: 'i', steps: [{ stepId: 's', type: 'work', args: {} }] };
      journal.planStarted(plan, undefined);
      for (let s = 0; s < 20; s += 1) journal.stepEnded(`p${p}:s${s}`, outcome(`p${p}:s${s}`));
      if (p < 199) journal.planEnded({ planId: `p${p}`, intentId: 'i', status: 'completed', steps: [], repairs: 0, startedAt: 0, endedAt: 0 });
      largest = Math.max(largest, parseJournal(fs.readFileSync(file, 'utf8')).records.length);
    }
    // 4,200 records written; never more than twice the live set (500 keys + 1 plan) plus one plan's worth on disk.
    expect(largest).toBeLessThanOrEqual(2 * (capacity + 1) + 22);
    const reopened = open();
    const keys = [...reopened.completed()].map(([key]) => key);
    expect(keys).toHaveLength(capacity);
    expect(keys.at(-1)).toBe('p199:s19');
    expect(keys[0]).toBe(`p${199 - capacity / 20 + 1}:s0`);
    expect(reopened.unfinished()?.plan.planId).toBe('p199');
  });

  it('a history written before compaction existed is compacted when opened', () => {
    const file = path.join(tempDir(), 'plans.jsonl');
    const lines = Array.from({ length: 3_000 }, (_, n) => JSON.stringify(step(`k${n}`, n)));
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const journal = new PlanJournal(createJsonlJournal(file, { fsync: false }), new ManualClock(), silent, { capacity: 100 });
    expect([...journal.completed()].map(([key]) => key)).toEqual(Array.from({ length: 100 }, (_, n) => `k${2_900 + n}`));
    expect(parseJournal(fs.readFileSync(file, 'utf8')).records).toHaveLength(100);
  });
});
