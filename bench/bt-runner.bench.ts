// @sinew/bt-runtime: the behavior-tree runner vs bare mistreevous `step()` on the same 50-node tree
// (root + sequence + 48 leaves: 24 conditions and 24 actions, all synchronous), measured in the same run.
// Both run the tree to completion N times; Sinew adds leaf ownership, node paths, transition events and
// its root guard. Target (issue 18): ≤ 1.5× bare mistreevous.
import { performance } from 'node:perf_hooks';
import { defineBehavior, systemClock } from '@sinew/bt-runtime';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import { BehaviourTree, State } from 'mistreevous';

const RUNS = 5000;
const ROUNDS = 7;
const TARGET_RATIO = 1.5;

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

const ctx = createTestRunContext({ body: null, clock: systemClock, step: { verb: 'bench' } });

async function runSinew(): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < RUNS; i += 1) {
    const result = await sinew.run(ctx, null);
    if (result !== undefined) throw new Error(`sinew run failed: ${JSON.stringify(result)}`);
  }
  return performance.now() - start;
}

async function runBare(): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < RUNS; i += 1) {
    // step() resets a finished tree, then runs it to completion (all leaves are synchronous).
    bare.step();
    if (bare.getState() !== State.SUCCEEDED) throw new Error('bare run failed');
    await undefined; // same await per run as the Sinew loop
  }
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await runSinew();
await runBare();
const s: number[] = [];
const b: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  s.push(await runSinew());
  b.push(await runBare());
}
const sinewUs = (median(s) * 1000) / RUNS;
const bareUs = (median(b) * 1000) / RUNS;
const ratio = sinewUs / bareUs;
console.log(`sinew defineBehavior() run : ${sinewUs.toFixed(2)} µs per 50-node tree run (median of ${ROUNDS} × ${RUNS})`);
console.log(`bare mistreevous step: ${bareUs.toFixed(2)} µs per 50-node tree run (baseline, same run)`);
const bestRatio = Math.min(...s) / Math.min(...b);
console.log(`ratio                : ${ratio.toFixed(2)}× of medians, ${bestRatio.toFixed(2)}× of best rounds (target ≤ ${TARGET_RATIO}×)`);
if (ratio > TARGET_RATIO) {
  console.log('over target');
  process.exitCode = 1;
}
