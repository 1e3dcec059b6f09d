import { accepted, ManualClock } from '@sinew/executor-contracts';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// The guarded signal a runner gets registers listeners as a plain AbortSignal does: one listener added twice runs
// once, `onabort` replaced runs only the new handler, set to null or to a non-function it runs nothing and reads null.

it('a runner’s signal runs each listener once, and only the onabort handler set last', async () => {
  const ran: string[] = [];
  const read: unknown[] = [];
  const registrar = defineFake({
    name: 'registrar',
    version: '1.0.0',
    description: 'registers listeners the ways runners do',
    inputSchema: z.object({}),
    run: async (ctx) => {
      ctx.body.move(1);
      const signal = ctx.signal;
      const twice = () => void ran.push('twice');
      signal.addEventListener('abort', twice);
      signal.addEventListener('abort', twice);
      const object = { handleEvent: () => void ran.push('object') };
      signal.addEventListener('abort', object);
      signal.addEventListener('abort', object);
      signal.removeEventListener('abort', () => ran.push('never added'));
      signal.onabort = () => void ran.push('replaced onabort');
      signal.onabort = () => void ran.push('onabort');
      const cleared = () => void ran.push('cleared onabort');
      (signal as { onabort: unknown }).onabort = 'not a function';
      read.push(signal.onabort);
      signal.onabort = cleared;
      signal.onabort = null;
      read.push(signal.onabort);
      signal.onabort = () => void ran.push('last onabort');
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      throw signal.reason;
    },
    acceptance: () => accepted,
  });
  const clock = new ManualClock();
  const executor = createExecutor({ registry: registryWith(registrar), body: fakeBody(), clock, policy: { maxLocalRetries: 0, stuckMs: 60_000, defaultTimeoutMs: 200 } });
  const done = executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'registrar' }] });
  await clock.advance(200);
  expect(await done).toMatchObject({ status: 'failed', failure: { code: 'timeout' } });
  expect(read).toEqual([null, null]);
  expect(ran.sort()).toEqual(['last onabort', 'object', 'twice']);
  await executor.close();
});
