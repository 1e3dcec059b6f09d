import { describe, expect, it } from 'vitest';
import { recover, type StepRecovery } from '../src/recovery.js';

const step = { planId: 'p', stepId: 's', verb: 'dig', args: { position: { x: 1, y: 2, z: 3 } } };
const previous = { worker: 'gone', evidence: { body: 'w1' } };
const answering = (answer: () => unknown): StepRecovery => ({ verb: 'dig', verify: answer as StepRecovery['verify'] });

describe('a recovery verdict from user code', () => {
  it('done is recorded from the world, absent runs the step again', async () => {
    const done = await recover(answering(() => ({ state: 'done', reason: 'the block is air' })), step, previous, 7);
    expect(done).toMatchObject({ state: 'done', outcome: { status: 'succeeded', startedAt: 7, observables: { recoveredFromWorld: 'the block is air', previousWorker: 'gone' } } });
    expect(await recover(answering(async () => ({ state: 'absent' })), step, previous, 7)).toEqual({ state: 'absent' });
  });

  it.each([
    ['a misspelled key', { state: 'done', reasn: 'air' }, /answered \{"state":"done","reasn":"air"\}, not a verdict/],
    ['an extra key beside absent', { state: 'absent', why: 'air' }, /not a verdict/],
    ['an unknown state', { state: 'maybe' }, /not a verdict/],
    ['a reason that is not text', { state: 'done', reason: 3 }, /not a verdict/],
    ['nothing', undefined, /answered undefined, not a verdict/],
    ['a BigInt', 10n, /answered 10n?, not a verdict/],
  ])('%s is no verdict: the step is refused duplicate, not run and not recorded done', async (_name, answer, message) => {
    const recovered = await recover(answering(() => answer), step, previous, 7);
    expect(recovered.state).toBe('refused');
    expect(recovered.state === 'refused' && recovered.outcome.failure).toMatchObject({ code: 'duplicate', reason: expect.stringMatching(message) });
  });

  it('a verify that throws, even with a hostile error, is refused with what it threw', async () => {
    const hostile = Object.defineProperty(new Error('x'), 'message', { get: () => { throw new Error('no'); } });
    for (const thrown of [new Error('the chunk is not loaded'), hostile, 'plain text']) {
      const recovered = await recover(answering(() => { throw thrown; }), step, previous, 7);
      expect(recovered.state === 'refused' && recovered.outcome.failure?.reason).toMatch(/its recovery threw: /);
    }
    const recovered = await recover(answering(() => { throw new Error('the chunk is not loaded'); }), step, previous, 7);
    expect(recovered.state === 'refused' && recovered.outcome.failure?.reason).toContain('its recovery threw: the chunk is not loaded');
  });

  it('no recovery for the verb: refused, naming the option that declares one', async () => {
    const recovered = await recover(undefined, step, previous, 7);
    expect(recovered.state === 'refused' && recovered.outcome.failure?.reason).toContain('no recovery is declared for dig (createFleetWorker({ recover }))');
  });
});
