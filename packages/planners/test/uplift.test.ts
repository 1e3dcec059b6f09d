import { describe, expect, it } from 'vitest';
import { OutcomeMemory } from '../src/index.js';

describe('OutcomeMemory.uplift', () => {
  it('compares the first N and the last N outcomes of each task, method names grouped by their prefix', () => {
    const memory = new OutcomeMemory(undefined, undefined, { uplift: { window: 4 } });
    // obtain: F F F S S S S F S S → the first 4 (F F F S) succeed 1/4, the last 4 (S F S S) 3/4.
    const sequence = [false, false, false, true, true, true, true, false, true, true];
    sequence.forEach((success, i) => memory.record(i % 2 ? 'obtain.craft' : 'obtain.gather', 'biome:taiga', success));
    memory.record('planner:htn', '*', true); // the router's subject: not a method
    memory.record('fuel.coal', '*', true);
    expect(memory.uplift()).toEqual([
      { task: 'fuel', outcomes: 1, first: 1, last: 1, uplift: 0 },
      { task: 'obtain', outcomes: 10, first: 0.25, last: 0.75, uplift: 0.5 },
    ]);
  });

  it('is empty with no outcomes, and counts tasks past maxTasks under `other`', () => {
    const memory = new OutcomeMemory(undefined, undefined, { uplift: { window: 2, maxTasks: 2 } });
    expect(memory.uplift()).toEqual([]);
    for (let i = 0; i < 50; i++) memory.record(`task${i}.m`, '*', i % 2 === 0);
    expect(memory.uplift().map((u) => u.task)).toEqual(['other', 'task0', 'task1']);
    const other = memory.uplift().find((u) => u.task === 'other')!;
    expect(other).toEqual({ task: 'other', outcomes: 48, first: 0.5, last: 0.5, uplift: 0 });
  });
});
