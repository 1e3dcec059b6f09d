import { describe, expect, it } from 'vitest';
import { ERROR_CODES, runnerStepFailure } from '../src/index.js';

// A runner's failed result becomes the step failure of its code, keeping the fields that code carries
// (the node path of a behavior tree, the missing preconditions) and the runner's own retry verdict.

describe('runnerStepFailure keeps the node path for every code that carries one', () => {
  it.each(['stuck', 'timeout', 'aborted', 'body_disconnected', 'runner_error'] as const)('%s', (code) => {
    expect(runnerStepFailure({ ok: false, code, reason: 'the fence gate jammed', nodePath: 'root/seq[1]/open_gate', retryable: false })).toStrictEqual({
      code,
      reason: 'the fence gate jammed',
      retryable: false,
      nodePath: 'root/seq[1]/open_gate',
    });
  });

  it('precond_missing keeps the missing predicates and the node path', () => {
    expect(runnerStepFailure({ ok: false, code: 'precond_missing', reason: 'no shears', missing: ['has_item:shears:1'], nodePath: 'root/check' })).toStrictEqual({
      code: 'precond_missing',
      reason: 'no shears',
      retryable: ERROR_CODES.precond_missing.retryable,
      missing: ['has_item:shears:1'],
      nodePath: 'root/check',
    });
  });

  it('a code a runner should not report keeps the runner’s retry verdict, and nothing else', () => {
    const verdict = !ERROR_CODES.duplicate.retryable;
    expect(runnerStepFailure({ ok: false, code: 'duplicate' as never, reason: 'seen it', retryable: verdict, nodePath: 'root' })).toStrictEqual({ code: 'duplicate', reason: 'seen it', retryable: verdict });
  });
});
