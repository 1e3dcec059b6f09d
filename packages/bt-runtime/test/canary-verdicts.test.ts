import { accepted, ManualClock, type CanaryOptionsInput, type Logger, type PlanStepInput } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createExecutorMetrics } from '../src/index.js';
import { defineFake, digBlock, fakeBody, registryWith } from './fake-body.js';
import { metric } from './metric.js';

// A runtime canary through the public executor: which steps it takes, when a failed canary step runs again on the
// stable version, how its latency is judged against the stable one's, and what shadow mode reports.

type FakeDef = Parameters<typeof defineFake>[0];
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** dig_block 1.1.0 with `overrides` (the stable 1.0.0 is `digBlock`). */
const next = (overrides: Partial<FakeDef> = {}) => defineFake({ ...(digBlock as unknown as FakeDef), version: '1.1.0', ...overrides });

/** A dig that waits `waitMs` of executor time first (`after`: digs first, then waits). */
const slowDig = (version: string, waitMs: number, after = false) =>
  defineFake({
    ...(digBlock as unknown as FakeDef),
    version,
    run: async (ctx, args) => {
      const { block } = args as { block: string };
      if (after) ctx.body.dig(block);
      await ctx.sleep(waitMs);
      if (!after) ctx.body.dig(block);
    },
  });

function setup(stable: Parameters<typeof registryWith>[0] = digBlock, logger: Logger = silent) {
  const clock = new ManualClock();
  const body = fakeBody();
  const metrics = createExecutorMetrics();
  const registry = registryWith(stable);
  const executor = createExecutor({ registry, body, clock, metrics, logger, policy: { maxLocalRetries: 0 } });
  const decisions: string[] = [];
  const payloads: Record<string, unknown>[] = [];
  executor.on('canary.decision', (d) => {
    decisions.push(`${d.decision} ${d.version} (stable ${d.stable}): ${d.reason}`);
    payloads.push({ ...d });
  });
  const shadows: string[] = [];
  executor.on('canary.shadow', (e) => shadows.push(`${e.capability} ${e.version}/${e.stable} ${e.stepId} ${e.verdict}: ${e.reason}`));
  let n = 0;
  /** Runs one-step plans on fresh blocks, advancing the clock while each runs; the version and status of each. */
  const digs = async (count: number, extra: Partial<PlanStepInput> = {}) => {
    const seen: string[] = [];
    for (let i = 0; i < count; i += 1, n += 1) {
      body.blocks.add(`b${n}`);
      const running = executor.run({ planId: `p${n}`, intentId: 'i', steps: [{ stepId: `s${n}`, type: 'dig_block', args: { block: `b${n}` }, ...extra }] });
      await clock.advance(1_000);
      const step = (await running).steps[0]!;
      seen.push(`${step.capability?.version}:${step.status}${step.failure ? `:${step.failure.code}` : ''}`);
    }
    return seen;
  };
  const canary = (capability: ReturnType<typeof next>, options: CanaryOptionsInput = {}) => registry.registerCanary(capability, options);
  return { executor, registry, metrics, body, decisions, payloads, shadows, digs, canary };
}

describe('which steps a canary takes', () => {
  it('an even spread of its share: one step in three at a third', async () => {
    const s = setup();
    s.canary(next(), { share: 1 / 3, minSteps: 100 });
    expect(await s.digs(7)).toEqual(['1.0.0', '1.0.0', '1.1.0', '1.0.0', '1.0.0', '1.1.0', '1.0.0'].map((v) => `${v}:succeeded`));
    // A canary that acts is not judged beside the steps it does not take.
    expect(s.shadows).toEqual([]);
  });

  it('none in shadow mode, however many steps its share would give it', async () => {
    const s = setup();
    s.canary(next(), { mode: 'shadow', share: 0.5, minSteps: 1 });
    expect(new Set(await s.digs(12))).toEqual(new Set(['1.0.0:succeeded']));
    expect(s.shadows).toHaveLength(12);
    expect(s.decisions).toEqual([]);
  });

  it('the default tenth takes the tenth step, not the eleventh (the sum of ten tenths is just below 1)', async () => {
    const s = setup();
    s.canary(next(), { minSteps: 100 });
    const versions = await s.digs(20);
    expect(versions.flatMap((v, i) => (v.startsWith('1.1.0') ? [i + 1] : []))).toEqual([10, 20]);
  });

  it('none of the steps that ask for a version: they run the version they asked for', async () => {
    const s = setup();
    s.canary(next(), { share: 0.5, minSteps: 1 });
    expect(await s.digs(3, { capabilityVersion: '1.0.0' })).toEqual(['1.0.0:succeeded', '1.0.0:succeeded', '1.0.0:succeeded']);
    expect(await s.digs(2, { capabilityVersion: '^1.1.0' })).toEqual(['1.1.0:succeeded', '1.1.0:succeeded']);
    expect(s.decisions).toEqual([]);
    expect(s.registry.canary('dig_block')?.capability.version).toBe('1.1.0');
  });
});

describe('a canary step that failed', () => {
  /** A canary whose runner gives up with `code` without acting. */
  const givesUp = (code: string) => next({ run: async () => ({ ok: false, code: code as 'stuck', reason: `gave up (${code})` }) });

  it('before acting, for its own reasons, runs again on the stable version within the same step', async () => {
    const s = setup();
    s.canary(givesUp('stuck'), { share: 0.5, minSteps: 100 });
    expect(await s.digs(2)).toEqual(['1.0.0:succeeded', '1.0.0:succeeded']);
    expect(s.decisions).toEqual(['fallback 1.1.0 (stable 1.0.0): s1 failed before acting (stuck); re-run on 1.0.0']);
    expect(s.payloads[0]).not.toHaveProperty('canarySla');
    expect(s.body.calls).toEqual(['dig:b0', 'dig:b1']);
  });

  it('for a reason that is not the canary’s (aborted, disconnected) is reported as it is', async () => {
    for (const code of ['aborted', 'body_disconnected']) {
      const s = setup();
      s.canary(givesUp(code), { share: 0.5, minSteps: 100 });
      expect(await s.digs(2)).toEqual(['1.0.0:succeeded', `1.1.0:failed:${code}`]);
      expect(s.decisions).toEqual([]);
    }
  });

  it('whose args its own schema refuses runs on the stable version, the refusal named', async () => {
    const s = setup();
    s.canary(next({ inputSchema: z.strictObject({ target: z.string() }) }), { share: 0.5, minSteps: 100 });
    expect(await s.digs(2)).toEqual(['1.0.0:succeeded', '1.0.0:succeeded']);
    expect(s.decisions).toHaveLength(1);
    expect(s.decisions[0]).toMatch(/^fallback 1\.1\.0 \(stable 1\.0\.0\): s1: 1\.1\.0 refused the args \(.*target.*\); run on 1\.0\.0$/s);
  });
});

describe('the verdict after minSteps', () => {
  it('waits for minSteps canary steps, then promotes with both SLAs in the event', async () => {
    const s = setup();
    s.canary(next(), { share: 0.5, minSteps: 3 });
    await s.digs(5);
    expect(s.decisions).toEqual([]);
    await s.digs(1);
    expect(s.decisions).toEqual(['promoted 1.1.0 (stable 1.0.0): no worse than 1.0.0 over 3 steps']);
    expect(s.payloads[0]).toMatchObject({ capability: 'dig_block', canarySla: { steps: 3, succeeded: 3 }, stableSla: { steps: 3, succeeded: 3 } });
    expect(await metric(s.metrics.registry, 'sinew_canary_decisions_total', { capability: 'dig_block', version: '1.1.0', decision: 'promoted' })).toBe(1);
  });

  it('demotes a canary slower to its first action than the stable version beyond the tolerance', async () => {
    const s = setup(slowDig('1.0.0', 100));
    s.canary(slowDig('1.1.0', 125), { share: 0.5, minSteps: 1, latencyTolerance: 0.2 });
    await s.digs(2);
    expect(s.decisions).toEqual(['demoted 1.1.0 (stable 1.0.0): ttfaP95Ms 125 ms > stable 100 ms (+20 %)']);
    expect(s.registry.resolve('dig_block')).toMatchObject({ ok: true, capability: { version: '1.0.0' } });
  });

  it('promotes a canary slower by no more than the tolerance', async () => {
    const s = setup(slowDig('1.0.0', 100));
    s.canary(slowDig('1.1.0', 120), { share: 0.5, minSteps: 1, latencyTolerance: 0.2 });
    await s.digs(2);
    expect(s.decisions).toEqual(['promoted 1.1.0 (stable 1.0.0): no worse than 1.0.0 over 1 steps']);
  });

  it('demotes a canary that acts as soon but takes longer to finish, on duration', async () => {
    const s = setup(slowDig('1.0.0', 40, true));
    s.canary(slowDig('1.1.0', 60, true), { share: 0.5, minSteps: 1, latencyTolerance: 0.25 });
    await s.digs(2);
    expect(s.decisions).toEqual(['demoted 1.1.0 (stable 1.0.0): durationP95Ms 60 ms > stable 40 ms (+25 %)']);
  });

  it('compares first actions only when both versions acted: a stable version that never acts is judged on duration', async () => {
    // The stable version waits 10 ms and succeeds without a command (no TTFA); the canary acts after 5 ms.
    const idle = defineFake({ ...(digBlock as unknown as FakeDef), run: async (ctx) => void (await ctx.sleep(10)), acceptance: () => accepted });
    const s = setup(idle);
    s.canary(slowDig('1.1.0', 5), { share: 0.5, minSteps: 1 });
    await s.digs(2);
    expect(s.decisions).toEqual(['promoted 1.1.0 (stable 1.0.0): no worse than 1.0.0 over 1 steps']);
  });

  it('a verdict the registry refuses is logged with the error, the step’s outcome kept', async () => {
    const errors: string[] = [];
    const s = setup(digBlock, { debug() {}, info() {}, warn() {}, error: (message, fields) => void errors.push(`${message} ${JSON.stringify(fields)}`) });
    s.registry.promote = () => {
      throw new Error('store offline');
    };
    s.canary(next(), { share: 0.5, minSteps: 1 });
    expect(await s.digs(2)).toEqual(['1.0.0:succeeded', '1.1.0:succeeded']);
    expect(errors).toEqual(['canary verdict on dig_block failed {"error":"store offline"}']);
  });

  it('judges the success rate first, with three decimals', async () => {
    let calls = 0;
    // Fails one run in three after acting (moves instead of digging); as fast as the stable version.
    const flaky = next({ run: async (ctx, args) => (++calls % 3 === 0 ? ctx.body.move(1) : void ctx.body.dig((args as { block: string }).block)) });
    const s = setup();
    s.canary(flaky, { share: 0.5, minSteps: 3 });
    await s.digs(6);
    expect(s.decisions).toEqual(['demoted 1.1.0 (stable 1.0.0): success rate 0.667 < stable 1.000']);
  });
});

describe('shadow mode', () => {
  it('judges every stable step: would the canary have run it, did the stable version act', async () => {
    const pickyStable = defineFake({ ...(digBlock as unknown as FakeDef), guard: (_ctx, args) => ((args as { block: string }).block === 'b0' ? { ok: false, code: 'guard_failed', reason: 'b0 is bedrock' } : { ok: true }) });
    const s = setup(pickyStable);
    s.canary(next({ inputSchema: z.strictObject({ block: z.string().regex(/^b[01]$/) }), acceptance: () => accepted }), { mode: 'shadow' });
    expect(await s.digs(3)).toEqual(['1.0.0:failed:guard_failed', '1.0.0:succeeded', '1.0.0:succeeded']);
    expect(s.shadows).toHaveLength(3);
    expect(s.shadows[0]).toBe('dig_block 1.1.0/1.0.0 s0 disagree: 1.1.0 would have run; 1.0.0 failed');
    expect(s.shadows[1]).toBe('dig_block 1.1.0/1.0.0 s1 agree: 1.1.0 would have run; 1.0.0 succeeded');
    expect(s.shadows[2]).toMatch(/^dig_block 1\.1\.0\/1\.0\.0 s2 disagree: 1\.1\.0 would have refused \(invalid_args: .+\); 1\.0\.0 succeeded$/s);
    expect(s.decisions).toEqual([]);
    expect(s.body.calls).toEqual(['dig:b1', 'dig:b2']);
  });

  it('counts a stable step that succeeded without a command as one that ran', async () => {
    const s = setup(defineFake({ ...(digBlock as unknown as FakeDef), run: async () => {}, acceptance: () => accepted }));
    s.canary(next(), { mode: 'shadow' });
    expect(await s.digs(1)).toEqual(['1.0.0:succeeded']);
    expect(s.shadows).toEqual(['dig_block 1.1.0/1.0.0 s0 agree: 1.1.0 would have run; 1.0.0 succeeded']);
  });

  it('counts a stable step that acted and then failed as one that ran', async () => {
    const s = setup(defineFake({ ...(digBlock as unknown as FakeDef), run: async (ctx) => ctx.body.move(1) }));
    s.canary(next({ guard: () => ({ ok: false, code: 'guard_failed', reason: 'never' }) }), { mode: 'shadow' });
    expect(await s.digs(1)).toEqual(['1.0.0:failed:effects_unmet']);
    expect(s.shadows).toEqual(['dig_block 1.1.0/1.0.0 s0 disagree: 1.1.0 would have refused (guard_failed: never); 1.0.0 failed']);
  });
});
