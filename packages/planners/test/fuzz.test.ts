import { expect, it } from 'vitest';
import { runPlannerFuzz } from '../../../fuzz/planner-inputs.js';

// Issue 12 item 11: the planner half of `npm run fuzz`, 1,000 seeded inputs as part of `npm test`.
it('1,000 hostile planner inputs (replies, complete() failures, garbage planner results, hostile intents) all end coded: no throw, hang or unhandled rejection', async () => {
  const stats = await runPlannerFuzz({ seed: 12, count: 1_000, timeLimitMs: 60_000 });
  expect(stats.errors).toEqual([]);
  expect(stats).toMatchObject({ inputs: 1_000, throws: 0, hangs: 0, uncoded: 0, unhandled: 0 });
  // The harness reaches both targets and both ends: plans and coded failures.
  for (const key of ['llm:ok', 'llm:llm_unavailable', 'llm:llm_output_rejected', 'llm:invalid_intent', 'router:ok', 'router:planner_error']) {
    expect(stats.outcomes[key], key).toBeGreaterThan(0);
  }
}, 60_000);
