import { describe, expect, it } from 'vitest';
import { parseJournal } from '../src/journal/records.js';

// Step lines as the executor wrote them before StepFailure became a union by code (issue 24), one per
// failure shape it produced: a resumed plan must read every one back, or it would run the step again.
const OLD_LINES = [
  '{"kind":"plan_start","at":1700000000000,"plan":{"planId":"p-7","intentId":"i-7","steps":[{"stepId":"s1","type":"craft_item","args":{"item":"stick","count":4}}]}}',
  '{"kind":"step","at":1700000000410,"key":"p-7/s1","outcome":{"planId":"p-7","stepId":"s1","verb":"craft_item","capability":{"name":"craft_item","version":"1.2.0"},"status":"failed","failure":{"code":"precond_missing","reason":"missing has_item:oak_planks:2","retryable":false,"missing":["has_item:oak_planks:2"]},"attempts":1,"startedAt":1700000000001,"endedAt":1700000000409}}',
  '{"kind":"step","at":1700000001000,"key":"p-7/s2","outcome":{"planId":"p-7","stepId":"s2","verb":"mine","status":"failed","failure":{"code":"effects_unmet","reason":"declared effects not observed: has_item:oak_log:+1","retryable":true,"unmet":["has_item:oak_log:+1"]},"attempts":3,"startedAt":1700000000500,"endedAt":1700000000999,"ttfaMs":42}}',
  '{"kind":"step","at":1700000001500,"key":"p-7/s3","outcome":{"planId":"p-7","stepId":"s3","verb":"chop","status":"failed","failure":{"code":"runner_error","reason":"behavior tree failed at root/sequence[1]/swing","retryable":true,"nodePath":"root/sequence[1]/swing"},"attempts":2,"startedAt":1700000001001,"endedAt":1700000001499}}',
  '{"kind":"step","at":1700000001600,"key":"p-7/s4","outcome":{"planId":"p-7","stepId":"s4","verb":"chop","status":"failed","failure":{"code":"stuck","reason":"node root/wait ran 9000 ms (maxNodeDurationMs 9000)","retryable":true,"nodePath":"root/wait"},"attempts":1,"startedAt":1700000001501,"endedAt":1700000001599}}',
  '{"kind":"step","at":1700000001700,"key":"p-7/s5","outcome":{"planId":"p-7","stepId":"s5","verb":"mnie","status":"failed","failure":{"code":"unknown_verb","reason":"no capability provides \\"mnie\\" (did you mean mine?)","retryable":false,"suggestions":["mine"]},"attempts":0,"startedAt":1700000001601,"endedAt":1700000001601}}',
  '{"kind":"step","at":1700000001800,"key":"p-7/s6","outcome":{"planId":"p-7","stepId":"s6","verb":"navigate","status":"failed","failure":{"code":"invalid_args","reason":"invalid args for navigate@1.0.0","retryable":false,"issues":[{"path":["to","x"],"code":"invalid_type","message":"Invalid input: expected number, received string"}]},"attempts":0,"startedAt":1700000001701,"endedAt":1700000001701}}',
  '{"kind":"step","at":1700000001900,"key":"p-7/s7","outcome":{"planId":"p-7","stepId":"s7","verb":"dig_block","status":"failed","failure":{"code":"guard_failed","reason":"too far","retryable":false,"missing":["within_reach:3,64,-2"]},"attempts":0,"startedAt":1700000001801,"endedAt":1700000001801}}',
  '{"kind":"step","at":1700000002000,"key":"p-7/s8","outcome":{"planId":"p-7","stepId":"s8","verb":"navigate","status":"failed","failure":{"code":"timeout","reason":"the plan ran past its time budget of 2000 ms","retryable":false},"attempts":1,"startedAt":1700000001901,"endedAt":1700000001999}}',
  '{"kind":"step","at":1700000002100,"key":"p-7/s9","outcome":{"planId":"p-7","stepId":"s9","verb":"eat","status":"preempted","failure":{"code":"preempted","reason":"interrupted 3 times (maxResumes 2)","retryable":false},"attempts":3,"startedAt":1700000002001,"endedAt":1700000002099}}',
  '{"kind":"step","at":1700000002200,"key":"p-7/s1","outcome":{"planId":"p-7","stepId":"s1","verb":"craft_item","status":"failed","failure":{"code":"duplicate","reason":"idempotency key \\"p-7/s1\\" already completed as p-6/s1; not dispatched again","retryable":false},"attempts":0,"startedAt":1700000002101,"endedAt":1700000002101}}',
  '{"kind":"plan_end","at":1700000002300,"planId":"p-7","status":"failed"}',
];

describe('journal lines written before the failure union (issue 24)', () => {
  it('every old line still parses, each failure unchanged on the wire', () => {
    const read = parseJournal(OLD_LINES.join('\n') + '\n');
    expect(read.skipped).toBe(0);
    expect(read.records).toEqual(OLD_LINES.map((line) => JSON.parse(line)));
    for (const [index, record] of read.records.entries()) {
      if (record.kind !== 'step') continue;
      const written = (JSON.parse(OLD_LINES[index]!) as { outcome: { failure: unknown } }).outcome.failure;
      expect(JSON.stringify(record.outcome.failure)).toBe(JSON.stringify(written));
    }
  });

  it('a failure carrying a field of another code is skipped and counted, not read as a different failure', () => {
    const line = OLD_LINES[4]!.replace('"nodePath":"root/wait"', '"nodePath":"root/wait","unmet":["has_item:oak_log"]');
    expect(parseJournal(line)).toEqual({ records: [], skipped: 1 });
  });
});
