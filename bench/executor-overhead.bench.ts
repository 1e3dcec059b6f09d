// @sinew/bt-runtime: executor overhead per step — 10,000 steps of a no-op capability through the full
// pipeline (V1–V3 checks, idempotency, watchdog timers on the real clock, metrics, in-memory provenance)
// vs calling the same runner directly, measured in the same run. Target (issue 18): ≤ 5 µs overhead per step.
// Also: the per-attempt body view (issue 12: attribution without async hooks) — making a view and
// calling through it vs calling the instrumented body directly.
import { performance } from 'node:perf_hooks';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';
import { createExecutor, createExecutorMetrics, instrumentMethods, leasedView, createMemoryProvenance, systemClock, type ActuatorLease, type ActuatorSource } from '@sinew/bt-runtime';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import { z } from 'zod';

const STEPS = 10_000;
const ROUNDS = 7;
const TARGET_US = 5;

class Body {
  pokes = 0;
  poke(): void {
    this.pokes += 1;
  }
}
type Instrumented = Body & ActuatorSource;

const body: Instrumented = instrumentMethods(new Body(), ['poke']);
const noop = defineCapability<z.ZodObject<{ n: z.ZodNumber }>, Instrumented>({
  name: 'noop',
  version: '1.0.0',
  description: 'pokes the body once',
  inputSchema: z.object({ n: z.number() }),
  guard: () => ({ ok: true }),
  run: async (ctx) => {
    ctx.body.poke();
  },
  acceptance: () => accepted,
});

const registry = new CapabilityRegistry<Instrumented>().register(noop);

async function pipeline(round: number): Promise<number> {
  const executor = createExecutor({ registry, body, metrics: createExecutorMetrics(), provenance: createMemoryProvenance({ capacity: 1000 }) });
  const steps = Array.from({ length: STEPS }, (_, i) => ({ stepId: `s${i}`, type: 'noop', args: { n: i } }));
  const start = performance.now();
  const outcome = await executor.run({ planId: `bench-${round}`, intentId: 'bench', steps });
  const elapsed = performance.now() - start;
  if (outcome.status !== 'completed' || outcome.steps.length !== STEPS) throw new Error(`pipeline run failed: ${outcome.status}`);
  await executor.close();
  return elapsed;
}

async function direct(): Promise<number> {
  const ctx = createTestRunContext({ body, clock: systemClock, step: { verb: 'noop' } });
  const start = performance.now();
  for (let i = 0; i < STEPS; i += 1) await noop.run(ctx, { n: i });
  return performance.now() - start;
}

/** One view per call (as one per attempt), one command through it, vs the same command on the body. */
function viewCost(): { viewUs: number; bodyUs: number } {
  const lease: ActuatorLease = { expired: false, stale() {} };
  const calls = STEPS * 10;
  let start = performance.now();
  for (let i = 0; i < calls; i += 1) leasedView(body, lease).poke();
  const viewUs = ((performance.now() - start) * 1000) / calls;
  start = performance.now();
  for (let i = 0; i < calls; i += 1) body.poke();
  return { viewUs, bodyUs: ((performance.now() - start) * 1000) / calls };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await pipeline(-1);
await direct();
const piped: number[] = [];
const bare: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  piped.push(await pipeline(round));
  bare.push(await direct());
}
const pipeUs = (median(piped) * 1000) / STEPS;
const directUs = (median(bare) * 1000) / STEPS;
const overhead = pipeUs - directUs;
const bestUs = (Math.min(...piped) * 1000) / STEPS;
console.log(`executor pipeline : ${pipeUs.toFixed(2)} µs/step (median of ${ROUNDS} × ${STEPS} steps; best round ${bestUs.toFixed(2)})`);
console.log(`direct runner call: ${directUs.toFixed(2)} µs/step (baseline, same run)`);
console.log(`overhead          : ${overhead.toFixed(2)} µs/step, ratio ${(pipeUs / directUs).toFixed(1)}× (target ≤ ${TARGET_US} µs/step)`);
viewCost();
const views = Array.from({ length: ROUNDS }, viewCost);
const viewUs = median(views.map((v) => v.viewUs));
const bodyUs = median(views.map((v) => v.bodyUs));
console.log(`body view         : ${viewUs.toFixed(3)} µs per attempt (new view + one command) vs ${bodyUs.toFixed(3)} µs direct, +${(viewUs - bodyUs).toFixed(3)} µs`);
if (overhead > TARGET_US) {
  console.log(`over target`);
  process.exitCode = 1;
}
