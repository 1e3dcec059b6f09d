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

  it('notices an idle drop without a run and reconnects at once; a later run(NEW) answers for NEW, leaving an older unfinished plan for resume()', async () => {
    server = await startServer();
    const srv = server;
    const [oldTarget, newTarget] = [srv.spawn.offset(2, 0, 0), srv.spawn.offset(-2, 0, 0)].map((p) => p.floored());
    for (const target of [oldTarget, newTarget]) await setBlock(srv, target!, 'dirt');
    const journal = createMemoryJournal();
    // An earlier process started OLD and died before it ended.
    const old = { planId: 'old', intentId: 'test', steps: [{ stepId: 'd1', type: 'dig_block', args: { position: oldTarget } }] };
    journal.append({ kind: 'plan_start', at: 0, plan: old });
    let reconnected!: () => void;
    const back = new Promise<void>((resolve) => (reconnected = resolve));
    supervisor = await superviseBot({
      connect: () => connectBot(srv, { username: 'idle' }),
      executor: (bot) => createExecutor({ registry: createStandardRegistry(), body: bot, journal }),
      policy: { initialMs: 0 },
      onReconnect: ({ ok }) => ok && reconnected(),
    });
    const firstBot = supervisor.bot;
    await (await applyScenario(srv, 'kick_mid_step', { username: 'idle', afterMs: 0 })).kicked;
    // No run is asked: the supervisor watches the connection itself.
    await back;
    expect(supervisor.connected).toBe(true);
    expect(supervisor.bot).not.toBe(firstBot);
    const fresh = { planId: 'new', intentId: 'test', steps: [{ stepId: 'd1', type: 'dig_block', args: { position: newTarget } }] };
    const outcome = await supervisor.run(fresh);
    expect(outcome).toMatchObject({ planId: 'new', status: 'completed' });
    expect(supervisor.bot.blockAt(newTarget!)?.name).toBe('air');
    expect(supervisor.bot.blockAt(oldTarget!)?.name).toBe('dirt');
    expect(await supervisor.executor.resume()).toMatchObject({ planId: 'old', status: 'completed' });
  }, 60_000);

  it('a supervisor that gave up reconnecting picks the server up again on the next run', async () => {
    server = await startServer();
    const srv = server;
    const target = srv.spawn.offset(2, 0, 0).floored();
    await setBlock(srv, target, 'dirt');
    const journal = createMemoryJournal();
    let refusing = false;
    const attempts: string[] = [];
    let gaveUp!: () => void;
    const exhausted = new Promise<void>((resolve) => (gaveUp = resolve));
    supervisor = await superviseBot({
      connect: () => (refusing ? Promise.reject(new Error('connection refused')) : connectBot(srv, { username: 'back' })),
      executor: (bot) => createExecutor({ registry: createStandardRegistry(), body: bot, journal }),
      policy: { initialMs: 10, maxReconnects: 2 },
      onReconnect: ({ ok, error }) => {
        attempts.push(ok ? 'ok' : error ?? '');
        if (attempts.length === 2) gaveUp();
      },
    });
    refusing = true;
    await (await applyScenario(srv, 'kick_mid_step', { username: 'back', afterMs: 0 })).kicked;
    await exhausted;
    expect(supervisor.connected).toBe(false);
    refusing = false; // the server is back
    const outcome = await supervisor.run({ planId: 'p', intentId: 'test', steps: [{ stepId: 'd1', type: 'dig_block', args: { position: target } }] });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('completed');
    expect(attempts).toEqual(['connection refused', 'connection refused', 'ok']);
    expect(supervisor.bot.blockAt(target)?.name).toBe('air');
  }, 60_000);

  it('answers a run it cannot connect for with a coded body_disconnected, never a throw', async () => {
    server = await startServer();
    const srv = server;
    let refusing = false;
    let refused!: () => void;
    const gaveUp = new Promise<void>((resolve) => (refused = resolve));
    supervisor = await superviseBot({
      connect: () => (refusing ? Promise.reject(new Error('connection refused')) : connectBot(srv, { username: 'gone' })),
      executor: (bot) => createExecutor({ registry: createStandardRegistry(), body: bot }),
      policy: { initialMs: 0, maxReconnects: 1 },
      onReconnect: ({ ok }) => ok || refused(),
    });
    refusing = true;
    await (await applyScenario(srv, 'kick_mid_step', { username: 'gone', afterMs: 0 })).kicked;
    await gaveUp;
    const hostile = { get planId(): string { throw new Error('hostile getter'); }, intentId: 'i', steps: [] };
    const outcome = await supervisor.run(hostile);
    expect(outcome).toMatchObject({ planId: 'unknown', intentId: 'i', status: 'failed', failure: { code: 'body_disconnected' } });
    expect(outcome.failure?.reason).toContain('could not reconnect after 1 attempts');
  }, 60_000);
});
