// @sinew/bt-runtime: the behavior-tree runner vs bare mistreevous `step()` on the same 50-node tree
// (root + sequence + 48 leaves: 24 conditions and 24 actions, all synchronous), measured in the same run.
// Both run the tree to completion N times; Sinew adds leaf ownership, node paths, transition events and
// its abort check. Warm-up, then 7 rounds alternating which side goes first; each side's figure is its
// process CPU time per run (user + system: what the other processes of a busy machine cannot add to), and the
// target is on the median of the per-round ratios. Target (issue 25): ≤ 1.2× bare mistreevous (issue 18 had 1.5×).
import { systemClock } from '@sinew/executor-contracts';
import { defineBehavior } from '@sinew/bt-runtime';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import { BehaviourTree, State } from 'mistreevous';
import { DEFAULT_ROUNDS, record } from './harness.js';

const RUNS = 5000;
const WARMUP = 2;

const leaves = Array.from({ length: 24 }, (_, i) => `condition [Ready, ${i}] action [Work, ${i}]`).join(' ');
const MDSL = `root { sequence { ${leaves} } }`;

let work = 0;
const sinew = defineBehavior<null, null>({
  tree: MDSL,
  actions: { Work: () => void (work += 1) },
  conditions: { Ready: () => true },
});
if (sinew.nodePaths.length !== 50) throw new Error(`expected 50 nodes, got ${sinew.nodePaths.length}`);

const bare = new BehaviourTree(MDSL, {
  Work: () => {
    work += 1;
    return State.SUCCEEDED;
  },
  Ready: () => true,
});

// The test context records every transition as a string (for assertions); the runner is measured with the
// no-op sinks a bare mistreevous run has, not with that bookkeeping.
const ctx = { ...createTestRunContext({ body: null, clock: systemClock, step: { verb: 'bench' } }), progress() {}, transition() {} };

async function runSinew(): Promise<void> {
  for (let i = 0; i < RUNS; i += 1) {
    const result = await sinew.run(ctx, null);
    if (result !== undefined) throw new Error(`sinew run failed: ${JSON.stringify(result)}`);
  }
}

async function runBare(): Promise<void> {
  for (let i = 0; i < RUNS; i += 1) {
    // step() resets a finished tree, then runs it to completion (all leaves are synchronous).
    bare.step();
    if (bare.getState() !== State.SUCCEEDED) throw new Error('bare run failed');
    await undefined; // same await per run as the Sinew loop
  }
}

/** CPU µs per run of one round of `loop`. */
async function cpuPerRun(loop: () => Promise<void>): Promise<number> {
  const cpu = process.cpuUsage();
  await loop();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / RUNS;
}

const sinewCpu: number[] = [];
const bareCpu: number[] = [];
for (let round = -WARMUP; round < DEFAULT_ROUNDS; round += 1) {
  const bareFirst = round % 2 !== 0;
  const early = bareFirst ? await cpuPerRun(runBare) : 0;
  const value = await cpuPerRun(runSinew);
  const base = bareFirst ? early : await cpuPerRun(runBare);
  if (round < 0) continue;
  sinewCpu.push(value);
  bareCpu.push(base);
}
record({ figure: 'defineBehavior() 50-node tree run, CPU (vs bare mistreevous step)', unit: 'µs', values: sinewCpu, baselines: bareCpu });
record({
  figure: 'defineBehavior() 50-node tree run: CPU ratio to bare mistreevous (median of per-round ratios)',
  unit: '×',
  values: sinewCpu.map((value, i) => value / bareCpu[i]!),
  target: { value: 1.2 },
  digits: 3,
});
