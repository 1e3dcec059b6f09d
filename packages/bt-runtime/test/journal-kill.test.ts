import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseJournal, type ProvenanceRecord } from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const child = fileURLToPath(new URL('./fixtures/journal-child.ts', import.meta.url));

// node itself with tsx as a loader: the tsx CLI would put a second process between the kill and the plan.
const start = (dir: string) => spawn(process.execPath, ['--import', 'tsx', child, dir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
const exited = (proc: ChildProcess) => new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => {
  let out = '';
  proc.stdout?.on('data', (chunk) => (out += chunk));
  proc.stderr?.on('data', (chunk) => (out += chunk));
  proc.on('exit', (code, signal) => resolve({ code, signal, out }));
});
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

/** Resolves once the journal holds `n` step records (polled: the child is a real process on real time). */
async function stepsJournaled(file: string, n: number, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (parseJournal(read(file)).records.filter((r) => r.kind === 'step').length < n) {
    if (Date.now() > until) throw new Error(`journal never held ${n} step records: ${read(file)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a process killed mid-plan', () => {
  it('resumes from the journal on restart and dispatches every step exactly once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-kill-'));
    try {
      const journal = path.join(dir, 'journal.jsonl');
      const first = start(dir);
      const firstExit = exited(first);
      await stepsJournaled(journal, 2); // s1 and s2 finished; s3 waits for the gate
      first.kill('SIGKILL');
      expect((await firstExit).signal).toBe('SIGKILL');
      expect(read(path.join(dir, 'world.log'))).toBe('s1\ns2\n');
      fs.writeFileSync(path.join(dir, 'gate'), '');
      const second = await exited(start(dir));
      expect(second.out).toContain('completed');
      expect(second.code).toBe(0);
      // The world: every mark exactly once.
      expect(read(path.join(dir, 'world.log'))).toBe('s1\ns2\ns3\ns4\ns5\n');
      // Provenance of both processes: one dispatched record per step, finished steps answered as duplicates.
      const records = read(path.join(dir, 'provenance.jsonl')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as ProvenanceRecord);
      const dispatched = records.filter((r) => r.outcome.failure?.code !== 'duplicate').map((r) => `${r.stepId}:${r.outcome.status}`);
      expect(dispatched).toEqual(['s1', 's2', 's3', 's4', 's5'].map((s) => `${s}:succeeded`));
      expect(records.filter((r) => r.outcome.failure?.code === 'duplicate').map((r) => r.stepId)).toEqual(['s1', 's2']);
      const kinds = parseJournal(read(journal)).records.map((r) => r.kind);
      expect(kinds.filter((k) => k === 'plan_start')).toHaveLength(2);
      expect(kinds.at(-1)).toBe('plan_end');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
