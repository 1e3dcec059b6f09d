import { describe, expect, it } from 'vitest';
import { runExecutorFaults } from '../../../fuzz/executor-faults.js';

describe('executor fault harness (issue 12 item 11)', () => {
  it('1,000 seeded fault plans: every step coded, no hang, no unhandled rejection, gauges back to 0', async () => {
    const stats = await runExecutorFaults({ seed: 12, plans: 1000 });
    expect(stats.errors).toEqual([]);
    expect(stats.plans).toBe(1000);
    expect(stats).toMatchObject({ hangs: 0, uncoded: 0, gaugesNotZero: 0, unhandled: 0 });
    // The mix reaches the paths it is for: successes, watchdogs, hostile values, disconnects.
    for (const code of ['succeeded', 'runner_error', 'timeout', 'ttfa_exceeded', 'effects_unmet', 'guard_failed', 'aborted', 'body_disconnected']) {
      expect(stats.outcomes[code], code).toBeGreaterThan(0);
    }
  }, 60_000);
});
