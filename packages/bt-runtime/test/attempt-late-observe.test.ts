import { accepted, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor, createMemoryProvenance } from '../src/index.js';
import { defineFake, fakeBody, registryWith, type World } from './fake-body.js';

// What an attempt does with an observe() that answers late, and with an acceptance that cannot answer: a post-observe
// settling after the attempt timed out is never judged; a retry's async observe is where the step shows itself since;
// an acceptance that throws leaves a record of an unmet acceptance that names no effect. Manual clock, fake body.

/** A pending observe the test answers by hand. */
function deferred() {
  let answer!: (world: World) => void;
  const promise = new Promise<World>((resolve) => (answer = resolve));
  return { promise, answer };
}

describe('an observe that answers after the attempt ended', () => {
  it('is not judged: a post-observe settling after the attempt timeout never reaches acceptance', async () => {
    const clock = new ManualClock();
    const body = fakeBody();
    const posts: ReturnType<typeof deferred>[] = [];
    let judged = 0;
    let observes = 0;
    const slowLook = defineFake({
      name: 'slow_look',
      version: '1.0.0',
      description: 'moves once; its second look never comes back in time',
      inputSchema: z.object({}),
      observe: ({ body: seen }) => {
        observes += 1;
        if (observes === 1) return seen.snapshot();
        const post = deferred();
        posts.push(post);
        return post.promise;
      },
      run: async (ctx) => ctx.body.move(1),
      acceptance: () => ((judged += 1), accepted),
    });
    const executor = createExecutor({ registry: registryWith(slowLook), body, clock, policy: { maxLocalRetries: 0, defaultTimeoutMs: 400 } });
    const run = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'look', type: 'slow_look', args: {} }] });
    await clock.advance(401);
    const result = await run;
    expect(result.status).toBe('failed');
    expect(result.steps[0]?.failure?.code).toBe('timeout');
    posts[0]!.answer(body.snapshot());
    await clock.flush();
    await clock.advance(10);
    expect(judged).toBe(0);
    expect(posts).toHaveLength(1);
  });
});

describe('a retry whose observe is asynchronous', () => {
  it('shows the step as since that attempt began, while its observe is pending', async () => {
    const clock = new ManualClock();
    const pres: ReturnType<typeof deferred>[] = [];
    let runs = 0;
    let answerAtOnce = false;
    const hesitant = defineFake({
      name: 'hesitant',
      version: '1.0.0',
      description: 'its first attempt fails retryably; every look waits for the test',
      inputSchema: z.object({}),
      observe: ({ body: seen }) => {
        if (answerAtOnce) return Promise.resolve(seen.snapshot());
        const pre = deferred();
        pres.push(pre);
        return pre.promise;
      },
      run: async (ctx) => {
        ctx.body.move(1);
        runs += 1;
        return runs === 1 ? { ok: false as const, code: 'stuck' as const, reason: 'slipped' } : undefined;
      },
      acceptance: () => accepted,
    });
    const body = fakeBody();
    const executor = createExecutor({ registry: registryWith(hesitant), body, clock, policy: { maxLocalRetries: 1, backoff: { initialMs: 250, maxMs: 250 } } });
    const run = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'hesitant', args: {} }] });
    await clock.advance(30);
    pres[0]!.answer(body.snapshot()); // the first attempt's pre; it runs and fails at 30 ms
    await clock.flush();
    await clock.advance(250); // the backoff: the second attempt starts at 280 ms and waits on its pre
    await clock.advance(70);
    expect(pres).toHaveLength(2);
    expect(executor.state().activeStep).toMatchObject({ stepId: 's', attempt: 2, sinceMs: 280 });
    answerAtOnce = true;
    pres[1]!.answer(body.snapshot());
    await clock.advance(10);
    expect((await run).status).toBe('completed');
  });
});

describe('an acceptance that throws', () => {
  it('fails the step effects_unmet and records an unmet acceptance with no effect named', async () => {
    const clock = new ManualClock();
    const memory = createMemoryProvenance();
    const brittle = defineFake({
      name: 'brittle',
      version: '1.0.0',
      description: 'moves; its acceptance breaks',
      inputSchema: z.object({}),
      observe: ({ body }) => body.snapshot(),
      run: async (ctx) => ctx.body.move(2),
      acceptance: () => {
        throw new TypeError('post.blocks is not iterable');
      },
    });
    const executor = createExecutor({ registry: registryWith(brittle), body: fakeBody(), clock, provenance: [memory], policy: { maxLocalRetries: 0 } });
    const result = await executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'b', type: 'brittle', args: {} }] });
    expect(result.steps[0]?.failure).toMatchObject({ code: 'effects_unmet', reason: 'acceptance of brittle threw: post.blocks is not iterable' });
    expect(memory.records().find((record) => record.stepId === 'b')?.acceptance).toEqual({ ok: false, unmet: [] });
  });
});
