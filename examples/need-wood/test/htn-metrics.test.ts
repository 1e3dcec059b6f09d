import { createExecutorMetrics, createHtnMetrics } from '@sinew/bt-runtime';
import { OutcomeMemory } from '@sinew/planners';
import { describe, expect, it } from 'vitest';

describe('createHtnMetrics', () => {
  it('exposes each task\'s method uplift and first/last success ratio from a real memory, primed at 0', async () => {
    const metrics = createExecutorMetrics();
    const memory = new OutcomeMemory(undefined, undefined, { uplift: { window: 3 } });
    createHtnMetrics(metrics.registry, { memory, tasks: ['obtain'] });
    const before = await metrics.registry.metrics();
    expect(before).toContain('sinew_htn_method_uplift{task="obtain"} 0');
    expect(before).toContain('sinew_htn_method_success_ratio{task="obtain",window="first"} 0');
    // F F S then S S S: first 3 succeed 1/3, last 3 all.
    for (const success of [false, false, true, true, true, true]) memory.record('obtain.craft', 'biome:taiga', success);
    const text = await metrics.registry.metrics();
    expect(text).toContain(`sinew_htn_method_uplift{task="obtain"} ${1 - 1 / 3}`);
    expect(text).toContain(`sinew_htn_method_success_ratio{task="obtain",window="first"} ${1 / 3}`);
    expect(text).toContain('sinew_htn_method_success_ratio{task="obtain",window="last"} 1');
    expect(text).not.toMatch(/NaN/);
  });

  it('keeps the task label set bounded (16 tasks, then `other`)', async () => {
    const metrics = createExecutorMetrics();
    const memory = new OutcomeMemory();
    createHtnMetrics(metrics.registry, { memory });
    for (let i = 0; i < 40; i++) memory.record(`task${i}.m`, '*', true);
    await metrics.registry.metrics();
    const { values } = await metrics.registry.getSingleMetric('sinew_htn_method_uplift')!.get();
    const tasks = new Set(values.map((v) => v.labels.task));
    expect(tasks.size).toBe(17);
    expect(tasks.has('other')).toBe(true);
  });
});
