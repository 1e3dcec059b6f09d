// @sinew/bt-runtime: the behavior-tree runner vs bare mistreevous `step()` on the same 50-node tree
// (root + sequence + 48 leaves: 24 conditions and 24 actions, all synchronous), measured in the same run.
// Both run the tree to completion N times; Sinew adds leaf ownership, node paths, transition events and
// its root guard. Warm-up, 7 alternating rounds (bench/harness.ts). Target (issue 25): ≤ 1.2× bare mistreevous (issue 18 had 1.5×).
import { systemClock } from '@sinew/executor-contracts';
import { performance } from 'node:perf_hooks';
import { defineBehavior } from '@sinew/bt-runtime';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import { BehaviourTree, State } from 'mistreevous';
import { compare } from './harness.js';

const RUNS = 5000;

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

const perRun = (ms: number) => (ms * 1000) / RUNS;
await compare({
  figure: 'defineBehavior() 50-node tree run (vs bare mistreevous step)',
  unit: 'µs',
  run: async () => perRun(await runSinew()),
  baseline: async () => perRun(await runBare()),
  target: { ratio: 1.2 },
});
