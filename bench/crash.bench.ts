// Crash consistency (issue 28): a real process running a journaled twelve-step plan is SIGKILLed at a seeded moment,
// restarted until the plan completes, and the world it left is audited: every step's effect exactly once, except
// the documented window — a kill after a step's effect and before its journal record re-runs that one step.
// A step re-run after its success was journaled, or a step lost, is a defect. SINEW_BENCH_CRASH_TRIALS (default 50).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '@sinew/executor-contracts';
import { parseJournal } from '@sinew/bt-runtime';
import { record, runMain } from './harness.js';

const child = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));
const root = fileURLToPath(new URL('../', import.meta.url));
const TRIALS = Number(process.env.SINEW_BENCH_CRASH_TRIALS ?? 50);

/** Starts the child; kills it `killAfterMs` after it is ready (undefined: lets it finish). Resolves how it ended. */
function runChild(dir: string, killAfterMs?: number): Promise<'killed' | 'completed' | 'failed'> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dir], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (killAfterMs !== undefined && out.startsWith('ready\n') && !proc.killed) setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.on('exit', (_code, signal) => resolve(signal === 'SIGKILL' ? 'killed' : out.includes('completed') ? 'completed' : 'failed'));
  });
}

runMain(async () => {
  const rng = mulberry32(28);
  const rows = { trials: 0, kills: 0, lost: 0, rerunAfterJournaled: 0, doubleInWindow: 0, restarts: 0 };
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sinew-crash-'));
    try {
      // One or two kills per trial, each at a seeded moment within the plan's ~70 ms of steps.
      const kills = 1 + Math.floor(rng() * 2);
      const journaledBefore = new Set<string>();
      for (let k = 0; k < kills; k += 1) {
        if ((await runChild(dir, Math.floor(rng() * 90))) === 'killed') rows.kills += 1;
        const journal = path.join(dir, 'journal.jsonl');
        const text = fs.existsSync(journal) ? fs.readFileSync(journal, 'utf8') : '';
        for (const r of parseJournal(text).records) if (r.kind === 'step' && r.outcome.status === 'succeeded') journaledBefore.add(r.outcome.stepId);
      }
      let ended: string;
      do {
        rows.restarts += 1;
        ended = await runChild(dir);
      } while (ended !== 'completed' && rows.restarts < 10 * TRIALS);
      const marks = fs.readFileSync(path.join(dir, 'world.log'), 'utf8').split('\n').filter(Boolean);
      const counts = new Map<string, number>();
      for (const m of marks) counts.set(m, (counts.get(m) ?? 0) + 1);
      for (let s = 1; s <= 12; s += 1) {
        const n = counts.get(`s${s}`) ?? 0;
        if (n === 0) rows.lost += 1;
        if (n > 1 && journaledBefore.has(`s${s}`)) rows.rerunAfterJournaled += 1;
        else if (n > 1) rows.doubleInWindow += n - 1;
      }
      rows.trials += 1;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`crash consistency: ${rows.trials} trials, ${rows.kills} SIGKILLs, ${rows.restarts} restarts to completion`);
  console.log(`  lost steps ${rows.lost} | re-run after a journaled success ${rows.rerunAfterJournaled} | double effects in the effect→record window ${rows.doubleInWindow}`);
  record({ figure: 'crash: steps lost', unit: 'steps', values: [rows.lost], target: { value: 0 }, digits: 0 });
  record({ figure: 'crash: re-run after journaled success', unit: 'steps', values: [rows.rerunAfterJournaled], target: { value: 0 }, digits: 0 });
  record({ figure: 'crash: double effects in the documented window', unit: 'steps', values: [rows.doubleInWindow], target: { value: rows.kills }, digits: 0 });
});
