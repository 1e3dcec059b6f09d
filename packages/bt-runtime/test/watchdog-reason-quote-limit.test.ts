import { describe, expect, it } from 'vitest';
import { watchdogFailure, type StepScope } from '../src/executor/attempt-result.js';

// Where a watchdog's reason cuts a runner's own string: a name or detail of exactly the limit (200 characters) is
// quoted whole, with no ellipsis; one character more is cut to the limit and marked.

const limits = { ttfaMs: 100, stuckMs: 250, timeoutMs: 900, graceMs: 0, traceLimit: 8 };
const lastNote = (name: string, detail?: string): StepScope => ({ entries: [{ atMs: 42, kind: 'progress', name, ...(detail === undefined ? {} : { detail }) }], dropped: 0, startedAt: 0 });

describe('a watchdog reason quoting a long progress note', () => {
  it('quotes a note of exactly 200 characters whole and cuts one of 201', () => {
    const exact = 'é'.repeat(199) + '!';
    const over = `${exact}?`;
    expect(watchdogFailure('stuck', limits, lastNote(exact, over)).reason).toBe(`no actuator command, node transition or progress for 250 ms; the last activity was progress "${exact}" (${exact}…) at 42 ms into the step`);
  });
});
