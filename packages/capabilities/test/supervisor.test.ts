import { createExecutor, createMemoryJournal, createMemoryProvenance } from '@sinew/bt-runtime';
import { applyScenario, connectBot, setBlock, startServer, type TestServer } from '@sinew/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createStandardRegistry, superviseBot, type SinewBot, type Supervisor } from '../src/index.js';

let server: TestServer | undefined;
let supervisor: Supervisor | undefined;

afterEach(async () => {
  await supervisor?.stop();
  await server?.stop();
  server = supervisor = undefined;
});

describe('superviseBot on the embedded server', () => {
  it('a bot kicked mid-dig reconnects, resumes the plan from the journal and finishes it, the finished step answered from the journal', async () => {
    server = await startServer();
    const srv = server;
    const targets = [srv.spawn.offset(2, 0, 0), srv.spawn.offset(-2, 0, 0), srv.spawn.offset(0, 0, 2)].map((p) => p.floored());
    for (const target of targets) await setBlock(srv, target, 'dirt');
    const journal = createMemoryJournal();
    const provenance = createMemoryProvenance();
    const reconnects: boolean[] = [];
    supervisor = await superviseBot({
      connect: () => connectBot(srv, { username: 'kicked' }),
      executor: (bot) => createExecutor({ registry: createStandardRegistry(), body: bot, journal, provenance, policy: { maxLocalRetries: 0 } }),
      policy: { initialMs: 200 },
      onReconnect: ({ ok }) => reconnects.push(ok),
    });
    const firstBot = supervisor.bot;
    // Once the first step finished, the second is kicked as soon as it starts digging.
    const armed = new Promise<Awaited<ReturnType<typeof applyScenario<'kick_mid_step'>>>>((resolve) => {
      const off = supervisor!.executor.on('step.succeeded', () => (off(), resolve(applyScenario(srv, 'kick_mid_step', { username: 'kicked', on: 'dig' }))));
    });
    const plan = { planId: 'dig3', intentId: 'test', steps: targets.map((position, i) => ({ stepId: `d${i + 1}`, type: 'dig_block', args: { position } })) };
    const outcome = await supervisor.run(plan);
    expect(await (await armed).kicked).toMatchObject({ username: 'kicked', trigger: 'dig' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(reconnects).toEqual([true]);
    expect(supervisor.bot).not.toBe(firstBot);
    for (const target of targets) expect(supervisor.bot.blockAt(target)?.name).toBe('air');
    const records = provenance.records();
    expect(records.map((r) => `${r.stepId}:${r.outcome.failure?.code ?? r.outcome.status}`)).toEqual(['d1:succeeded', 'd2:body_disconnected', 'd1:duplicate', 'd2:succeeded', 'd3:succeeded']);
    expect(journal.records.filter((r) => r.kind === 'plan_end')).toMatchObject([{ planId: 'dig3', status: 'completed' }]);
  }, 60_000);

  it('gives up after maxReconnects failed connects, leaving the plan unfinished for the next supervisor to resume', async () => {
    server = await startServer();
    const srv = server;
    const target = srv.spawn.offset(2, 0, 0).floored();
    await setBlock(srv, target, 'dirt');
    const journal = createMemoryJournal();
    const executor = (bot: SinewBot) => createExecutor({ registry: createStandardRegistry(), body: bot, journal, policy: { maxLocalRetries: 0 } });
    let connects = 0;
    const attempts: string[] = [];
    // The server refuses this account after its first login (a real refusal: connect rejects).
    const refusing = await superviseBot({
      connect: () => (++connects === 1 ? connectBot(srv, { username: 'refused' }) : Promise.reject(new Error('connection refused'))),
      executor,
      policy: { initialMs: 10, maxReconnects: 2 },
      onReconnect: ({ ok, error }) => attempts.push(ok ? 'ok' : error ?? ''),
    });
    await applyScenario(srv, 'kick_mid_step', { username: 'refused', on: 'dig' });
    const plan = { planId: 'dig1', intentId: 'test', steps: [{ stepId: 'd1', type: 'dig_block', args: { position: target } }] };
    const lost = await refusing.run(plan);
    expect(lost).toMatchObject({ status: 'failed', failure: { code: 'body_disconnected' } });
    expect(attempts).toEqual(['connection refused', 'connection refused']);
    expect(journal.records.some((r) => r.kind === 'plan_end')).toBe(false);
    supervisor = await superviseBot({ connect: () => connectBot(srv, { username: 'refused' }), executor });
    const resumed = await supervisor.executor.resume();
    expect(resumed).toMatchObject({ planId: 'dig1', status: 'completed' });
    expect(supervisor.bot.blockAt(target)?.name).toBe('air');
  }, 60_000);
});
