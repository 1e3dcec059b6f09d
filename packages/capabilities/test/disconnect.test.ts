import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';
import { connectBot, startServer, type TestServer } from '@sinew/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrumentBot, type SinewBot } from '../src/index.js';

/** Walks forward, reporting progress, until aborted: a step that is mid-way when the body goes away. */
const walkOn = defineCapability<z.ZodObject<Record<string, never>>, SinewBot>({
  name: 'walk_on',
  version: '1.0.0',
  description: 'walk forward until aborted',
  inputSchema: z.object({}),
  run: async (ctx) => {
    ctx.body.setControlState('forward', true);
    while (!ctx.signal.aborted) {
      ctx.progress('walking');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { ok: false, code: 'aborted', reason: 'aborted' };
  },
  acceptance: () => accepted,
  expectedDurationMs: 20_000,
});

let server: TestServer | undefined;
let executor: Executor<SinewBot> | undefined;

afterEach(async () => {
  await executor?.close();
  await server?.stop();
  server = executor = undefined;
});

async function walking(username: string) {
  server = await startServer();
  const bot = instrumentBot(await connectBot(server, { username }));
  executor = createExecutor({ registry: new CapabilityRegistry<SinewBot>().register(walkOn), body: bot, policy: { maxLocalRetries: 2 } });
  const plan = executor.run({ planId: 'walk', intentId: 'test', steps: [{ stepId: 'w', type: 'walk_on' }] });
  const queued = executor.run({ planId: 'next', intentId: 'test', steps: [{ stepId: 'n', type: 'walk_on' }] });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(executor.state().activeStep).toMatchObject({ stepId: 'w', phase: 'running' });
  // When the bot saw its connection end: the step's end is measured from there, not from the call that stops the
  // server (whose own shutdown takes longer on a loaded machine).
  const ended = new Promise<number>((resolve) => bot.once('end', () => resolve(Date.now())));
  return { bot, plan, queued, executor, ended };
}

describe('disconnects on the embedded server', () => {
  it('the server stopping mid-step ends the step body_disconnected within 1 s, without retry; the queued plan fails the same way', async () => {
    const { plan, queued, executor, ended } = await walking('stopped');
    await server!.stop();
    const outcome = await plan;
    expect(Date.now() - (await ended)).toBeLessThan(1000);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected' }, steps: [{ attempts: 1, failure: { code: 'body_disconnected' } }] });
    expect(await queued).toMatchObject({ status: 'failed', steps: [{ attempts: 0, failure: { code: 'body_disconnected' } }] });
    const retries = await executor.metrics.registry.getSingleMetric('sinew_step_retries_total')!.get();
    expect(retries.values.reduce((sum, v) => sum + v.value, 0)).toBe(0);
    const disconnects = await executor.metrics.registry.getSingleMetric('sinew_body_disconnects_total')!.get();
    expect(disconnects.values[0]?.value).toBe(1);
  }, 30_000);

  it('a kick mid-step ends the step body_disconnected within 1 s, naming the kick', async () => {
    const { plan, ended } = await walking('kicked');
    server!.serv!.getPlayer('kicked')!.kick('test kick');
    const outcome = await plan;
    expect(Date.now() - (await ended)).toBeLessThan(1000);
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected' } });
    expect(outcome.failure!.reason).toContain('kicked');
  }, 30_000);
});
