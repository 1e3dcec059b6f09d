// @sinew/bt-runtime: the behavior-tree runner vs bare mistreevous `step()` on the same 50-node tree
// (root + sequence + 48 leaves: 24 conditions and 24 actions, all synchronous). Both run the tree to completion
// RUNS times per round; Sinew adds leaf ownership, node paths, transition events and its abort check.
// Each side's figure is its process CPU time per run (user + system: what the other processes of a busy machine
// cannot add to). Each side runs in its own child process, driven round by round from here (order alternating),
// so the ratio of a round compares two runs made side by side; in one process the two trees would share
// mistreevous' code and its JIT feedback (call sites that see both trees' functions and nodes), which slows both
// and measures neither as used. That in-process figure is printed too, for comparison with earlier sessions.
// Target (issue 25): median of 7 per-round CPU ratios ≤ 1.2× bare mistreevous (issue 18 had 1.5×).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { systemClock } from '@sinew/executor-contracts';
import { defineBehavior } from '@sinew/bt-runtime';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import { BehaviourTree, State } from 'mistreevous';
import { DEFAULT_ROUNDS, record } from './harness.js';

// 20,000 runs a round (~100 ms of CPU a side): with 5,000 a young-generation collection or a preemption by another
// process was a quarter of a round, and the per-round ratios spread 1.10–1.48 around a median of 1.10–1.15.
const RUNS = 20_000;
const WARMUP = 2;
type Side = 'sinew' | 'bare';

const leaves = Array.from({ length: 24 }, (_, i) => `condition [Ready, ${i}] action [Work, ${i}]`).join(' ');
const MDSL = `root { sequence { ${leaves} } }`;
let work = 0;

/** RUNS runs of the Sinew runner (built here, on first use). */
function sinewLoop(): () => Promise<void> {
  const sinew = defineBehavior<null, null>({
    tree: MDSL,
    actions: { Work: () => void (work += 1) },
    conditions: { Ready: () => true },
  });
  if (sinew.nodePaths.length !== 50) throw new Error(`expected 50 nodes, got ${sinew.nodePaths.length}`);
  // The test context records every transition as a string (for assertions); the runner is measured with the
  // no-op sinks a bare mistreevous run has, not with that bookkeeping.
  const ctx = { ...createTestRunContext({ body: null, clock: systemClock, step: { verb: 'bench' } }), progress() {}, transition() {} };
  return async () => {
    for (let i = 0; i < RUNS; i += 1) {
      const result = await sinew.run(ctx, null);
      if (result !== undefined) throw new Error(`sinew run failed: ${JSON.stringify(result)}`);
    }
  };
}

/** RUNS runs of bare mistreevous on the same tree. */
function bareLoop(): () => Promise<void> {
  const bare = new BehaviourTree(MDSL, {
    Work: () => {
      work += 1;
      return State.SUCCEEDED;
    },
    Ready: () => true,
  });
  return async () => {
    for (let i = 0; i < RUNS; i += 1) {
      // step() resets a finished tree, then runs it to completion (all leaves are synchronous).
      bare.step();
      if (bare.getState() !== State.SUCCEEDED) throw new Error('bare run failed');
      await undefined; // same await per run as the Sinew loop
    }
  };
}

/** CPU µs per run of one round of `loop`. */
async function cpuPerRun(loop: () => Promise<void>): Promise<number> {
  const cpu = process.cpuUsage();
  await loop();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / RUNS;
}

/** WARMUP + DEFAULT_ROUNDS rounds, the bare side first in every other one; the measured rounds' figures. */
async function rounds(measure: (side: Side) => Promise<number>): Promise<{ sinew: number[]; bare: number[] }> {
  const out = { sinew: [] as number[], bare: [] as number[] };
  for (let round = -WARMUP; round < DEFAULT_ROUNDS; round += 1) {
    const order: Side[] = round % 2 !== 0 ? ['bare', 'sinew'] : ['sinew', 'bare'];
    const figures = { sinew: 0, bare: 0 };
    for (const side of order) figures[side] = await measure(side);
    if (round >= 0) for (const side of order) out[side].push(figures[side]);
  }
  return out;
}

/** A child process running one side; it answers each message with one round's CPU µs per run. */
function child(side: Side): { measure: () => Promise<number>; stop: () => void } {
  const worker: ChildProcess = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, SINEW_BT_BENCH_SIDE: side } });
  const measure = () =>
    new Promise<number>((resolve, reject) => {
      worker.once('message', (figure) => (typeof figure === 'number' ? resolve(figure) : reject(new Error(`${side}: ${String(figure)}`))));
      worker.once('exit', (code) => reject(new Error(`${side} bench process exited (${code})`)));
      worker.send('round');
    });
  return { measure, stop: () => worker.disconnect() };
}

function report(label: string, figures: { sinew: number[]; bare: number[] }, target: boolean): void {
  record({ figure: `defineBehavior() 50-node tree run, CPU, ${label} (vs bare mistreevous step)`, unit: 'µs', values: figures.sinew, baselines: figures.bare });
  record({
    figure: `defineBehavior() 50-node tree run, ${label}: CPU ratio to bare mistreevous (median of per-round ratios)`,
    unit: '×',
    values: figures.sinew.map((value, i) => value / figures.bare[i]!),
    ...(target ? { target: { value: 1.2 } } : {}),
    digits: 3,
  });
}

const side = process.env.SINEW_BT_BENCH_SIDE as Side | undefined;
if (side !== undefined) {
  const loop = side === 'sinew' ? sinewLoop() : bareLoop();
  process.on('message', () => {
    cpuPerRun(loop).then(
      (figure) => process.send!(figure),
      (error: unknown) => process.send!(String(error)),
    );
  });
} else {
  const sides = { sinew: child('sinew'), bare: child('bare') };
  try {
    report('each side in its own process', await rounds((s) => sides[s].measure()), true);
  } finally {
    sides.sinew.stop();
    sides.bare.stop();
  }
  const loops = { sinew: sinewLoop(), bare: bareLoop() };
  report('both in one process', await rounds((s) => cpuPerRun(loops[s])), false);
}
