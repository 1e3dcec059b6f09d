import { accepted, ConfigError, defineCapability, ManualClock } from '@sinew/executor-contracts';
import { BehaviourTree, State } from 'mistreevous';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineBehavior, BehaviorDefinitionError, createExecutor, createExecutorMetrics, createMemoryProvenance, type LeafContext } from '../src/index.js';
import { createTestRunContext } from '../src/testing/index.js';
import { defineFake, fakeBody, registryWith, type Body, type World } from './fake-body.js';
import { metric } from './metric.js';

const empty = z.object({});
type Ctx = LeafContext<Body, Record<string, never>>;

function harness(tree: ReturnType<typeof defineBehavior<Body, Record<string, never>>>, policy = {}) {
  const capability = defineFake({ name: 'bt', version: '1.0.0', description: 'a behavior tree', inputSchema: empty, behavior: tree, acceptance: () => accepted });
  const body = fakeBody();
  const clock = new ManualClock();
  const metrics = createExecutorMetrics();
  const provenance = createMemoryProvenance();
  const executor = createExecutor({ registry: registryWith(capability), body, clock, metrics, provenance, policy: { maxLocalRetries: 0, ...policy } });
  const run = () => executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'bt' }] });
  return { body, clock, registry: metrics.registry, provenance, executor, run };
}

describe('defineBehavior(): building', () => {
  it('rejects unknown leaf names when the tree is built, naming each and its node path', () => {
    const build = () =>
      defineBehavior<Body, unknown>({
        tree: `root { sequence { action [Known] action [Missing] condition [Nope] } }`,
        actions: { Known: () => true },
      });
    expect(build).toThrow(BehaviorDefinitionError);
    try {
      build();
    } catch (error) {
      const e = error as BehaviorDefinitionError;
      expect(e.code).toBe('unknown_leaf');
      expect(e.unknown).toEqual([
        { name: 'Missing', kind: 'action', nodePath: 'root/sequence[0]/action:Missing[1]' },
        { name: 'Nope', kind: 'condition', nodePath: 'root/sequence[0]/condition:Nope[2]' },
      ]);
    }
    expect(() => defineBehavior({ tree: 'root { sequence {', actions: {} })).toThrow(/does not parse|invalid/);
    expect(() => defineBehavior({ tree: 'root { action [A] }', actions: { A: () => true }, maxNodeDurationMs: 0 })).toThrow(/maxNodeDurationMs/);
  });

  it('refuses a bad timing option with the one ConfigError (invalid_config, where defineBehavior, the field path)', () => {
    for (const [options, field] of [[{ tickMs: 0 }, 'tickMs'], [{ maxNodeDurationMs: -1 }, 'maxNodeDurationMs']] as const) {
      let thrown: unknown;
      try {
        defineBehavior({ tree: 'root { action [A] }', actions: { A: () => true }, ...options });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect(thrown).toMatchObject({ code: 'invalid_config', where: 'defineBehavior', path: [field] });
    }
  });

  it('refuses at build a node that passes fewer arguments than its function takes, naming the node; extra ones are allowed', () => {
    const build = (tree: string) =>
      defineBehavior<Body, unknown>({
        tree,
        actions: { Dig: (_ctx: LeafContext<Body, unknown>, block: string, depth: number) => Boolean(block) && depth > 0, Rest: (_ctx: LeafContext<Body, unknown>, ...notes: string[]) => notes.length >= 0 },
        conditions: { Near: (_ctx: LeafContext<Body, unknown>, block: string) => Boolean(block) },
        callbacks: { Done: (_ctx: LeafContext<Body, unknown>, _how: { succeeded: boolean }, tag: string) => void tag },
      });
    let thrown: unknown;
    try {
      build(`root { sequence exit(Done) { condition [Near] action [Dig, "log", 2] action [Dig, "log"] } }`);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BehaviorDefinitionError);
    expect((thrown as BehaviorDefinitionError).code).toBe('bad_arguments');
    expect((thrown as Error).message).toBe(
      'behavior tree nodes pass too few arguments: callback "Done" at root/sequence[0]@exit needs 1 argument, the node passes 0; ' +
        'condition "Near" at root/sequence[0]/condition:Near[0] needs 1 argument, the node passes 0; ' +
        'action "Dig" at root/sequence[0]/action:Dig[2] needs 2 arguments, the node passes 1',
    );
    // Enough arguments (and any number for a rest parameter) build.
    expect(build(`root { sequence exit(Done, "t") { condition [Near, "log"] action [Dig, "log", 2] action [Rest] action [Rest, "a", "b"] } }`).nodePaths).toHaveLength(6);
  });

  it('gives nodes stable paths from the definition (branches inlined), the same on every build', () => {
    const tree = `
      root { selector { branch [Gather] action [Rest] } }
      root [Gather] { sequence while(HasTarget) { action [Go] action [Dig] } }`;
    const opts = { tree, actions: { Go: () => true, Dig: () => true, Rest: () => true }, conditions: { HasTarget: () => true } };
    const a = defineBehavior(opts);
    const b = defineBehavior(opts);
    expect(a.nodePaths).toEqual([
      'root',
      'root/selector[0]',
      'root/selector[0]/branch:Gather[0]/sequence[0]',
      'root/selector[0]/branch:Gather[0]/sequence[0]/action:Go[0]',
      'root/selector[0]/branch:Gather[0]/sequence[0]/action:Dig[1]',
      'root/selector[0]/action:Rest[1]',
    ]);
    expect(b.nodePaths).toEqual(a.nodePaths);
    expect(a.kind).toBe('behavior-tree');
  });
});

describe('defineBehavior(): running under the executor', () => {
  it('runs a tree to success, steps again as soon as a leaf settles, and traces node transitions', async () => {
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { sequence { action [Step] action [Step] action [Step] } }`,
      actions: {
        Step: async (ctx: Ctx) => {
          ctx.body.move(1);
          await Promise.resolve();
        },
      },
    });
    const { run, clock, body, provenance } = harness(tree);
    const done = run();
    await clock.flush();
    const outcome = await done;
    expect(outcome.status).toBe('completed');
    // No clock time passed: every step after the first came from a settled leaf, not a tick.
    expect(outcome.endedAt).toBe(0);
    expect(body.calls).toEqual(['move:1', 'move:1', 'move:1']);
    const transitions = provenance.records()[0]!.trace.filter((t) => t.kind === 'transition').map((t) => `${t.name}=${t.detail}`);
    expect(transitions).toContain('root/sequence[0]/action:Step[2]=succeeded');
    expect(transitions.at(-1)).toBe('root=succeeded');
  });

  it('turns a leaf rejection into a runner_error naming the node path', async () => {
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { sequence { action [Ok] action [Boom] } }`,
      actions: {
        Ok: (ctx: Ctx) => (ctx.body.chat('ok'), true),
        Boom: async () => {
          throw new Error('pickaxe broke');
        },
      },
    });
    const { run, clock, registry } = harness(tree);
    const done = run();
    await clock.flush();
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', failure: { code: 'runner_error', nodePath: 'root/sequence[0]/action:Boom[1]' } });
    expect(outcome.steps[0]!.failure!.reason).toContain('pickaxe broke');
    expect(await metric(registry, 'sinew_steps_total', { capability: 'bt', code: 'runner_error' })).toBe(1);
  });

  it('a tree that fails names the last failed leaf', async () => {
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { selector { condition [HasAxe] action [Punch] } }`,
      actions: { Punch: (ctx: Ctx) => (ctx.body.chat('punch'), false) },
      conditions: { HasAxe: () => false },
    });
    const { run } = harness(tree);
    const outcome = await run();
    expect(outcome.steps[0]).toMatchObject({ failure: { code: 'runner_error', nodePath: 'root/selector[0]/action:Punch[1]' } });
  });

  it('aborts through the root guard: running leaves see their signal abort and exit callbacks run', async () => {
    const exits: { succeeded: boolean; aborted: boolean }[] = [];
    let leafSignal: AbortSignal | undefined;
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { sequence exit(Cleanup) { action [Start] action [Forever] } }`,
      actions: {
        Start: (ctx: Ctx) => (ctx.body.chat('start'), true),
        Forever: (ctx: Ctx) => {
          leafSignal = ctx.signal;
          return new Promise(() => {});
        },
      },
      callbacks: { Cleanup: (_ctx: Ctx, how: { succeeded: boolean; aborted: boolean }) => void exits.push(how) },
    });
    const { run, clock, registry } = harness(tree, { timeoutMultiplier: 1, capabilities: { bt: { timeoutMs: 1000 }, }, stuckMs: 10_000 });
    const done = run();
    await clock.advance(1000);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ failure: { code: 'timeout' } });
    expect(leafSignal?.aborted).toBe(true);
    expect(exits).toEqual([{ succeeded: false, aborted: true }]);
    // The tree honoured the abort, so the runner was not abandoned.
    expect(await metric(registry, 'sinew_runners_abandoned_total')).toBe(0);
  });

  it('a tree with its own root guard still aborts on the step signal (the guards are combined)', async () => {
    let guardCalls = 0;
    let leafSignal: AbortSignal | undefined;
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root while(Safe) { sequence { action [Start] action [Forever] } }`,
      actions: {
        Start: (ctx: Ctx) => (ctx.body.chat('start'), true),
        Forever: (ctx: Ctx) => ((leafSignal = ctx.signal), new Promise(() => {})),
      },
      conditions: { Safe: () => (guardCalls += 1) > 0 },
    });
    expect(() => defineBehavior({ tree: `root while(Nope) { action [A] }`, actions: { A: () => true } })).toThrow(/guard "Nope" at root@while/);
    const { run, clock, registry } = harness(tree, { capabilities: { bt: { timeoutMs: 500 } } });
    const done = run();
    await clock.advance(500);
    expect((await done).steps[0]).toMatchObject({ failure: { code: 'timeout' } });
    expect(leafSignal?.aborted).toBe(true);
    expect(guardCalls).toBeGreaterThan(0);
    expect(await metric(registry, 'sinew_runners_abandoned_total')).toBe(0);
  });

  it('FM-03: a leaf running past maxNodeDurationMs fails the step as stuck with its node path', async () => {
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { sequence { action [Look] action [WaitForLog] } }`,
      actions: {
        Look: (ctx: Ctx) => (ctx.body.chat('looking'), true),
        WaitForLog: () => new Promise(() => {}),
      },
      maxNodeDurationMs: 1500,
    });
    const { run, clock, registry } = harness(tree);
    const done = run();
    await clock.advance(1499);
    expect((await Promise.race([done, Promise.resolve('pending')])) as unknown).toBe('pending');
    await clock.advance(1);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({
      status: 'failed',
      failure: { code: 'stuck', nodePath: 'root/sequence[0]/action:WaitForLog[1]' },
      endedAt: 1500,
    });
    expect(await metric(registry, 'sinew_step_stuck_total', { capability: 'bt' })).toBe(1);
    expect(await metric(registry, 'sinew_steps_total', { capability: 'bt', outcome: 'failed', code: 'stuck' })).toBe(1);
  });

  it('FM-03: without a node limit, a hung branch is caught by the executor stuck watchdog (no transitions for 3 s)', async () => {
    // A never-satisfied wait node: RUNNING forever, no state change, no actuator command.
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { sequence { action [Look] wait } }`,
      actions: { Look: (ctx: Ctx) => (ctx.body.chat('looking'), true) },
    });
    const { run, clock, registry, provenance } = harness(tree);
    const done = run();
    await clock.advance(2999);
    expect((await Promise.race([done, Promise.resolve('pending')])) as unknown).toBe('pending');
    await clock.advance(1);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ failure: { code: 'stuck' }, endedAt: 3000 });
    expect(await metric(registry, 'sinew_watchdog_trips_total', { capability: 'bt', code: 'stuck' })).toBe(1);
    expect(await metric(registry, 'sinew_step_stuck_total', { capability: 'bt' })).toBe(1);
    // The abort reached the tree through the root guard: the wait node was aborted, then the root failed.
    const transitions = provenance.records()[0]!.trace.filter((t) => t.kind === 'transition').map((t) => `${t.name}=${t.detail}`);
    expect(transitions).toContain('root/sequence[0]/wait[1]=aborted');
    expect(transitions.at(-1)).toBe('root=failed');
  });

  it('node transitions count as progress: a tree that keeps changing state is not stuck', async () => {
    let polls = 0;
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: `root { sequence { action [Start] repeat [40] { sequence { wait [100] condition [Poll] } } } }`,
      actions: { Start: (ctx: Ctx) => (ctx.body.chat('start'), true) },
      conditions: { Poll: () => (polls += 1) > 0 },
    });
    const { run, clock } = harness(tree);
    const done = run();
    await clock.advance(5000);
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded' });
    expect(polls).toBe(40);
  });
});

describe('defineBehavior(): the mistreevous late-promise flaw', () => {
  const TREE = `root { retry { sequence while(Keep) { action [Work] } } }`;

  it('bare mistreevous 4.3.1 applies an aborted run’s late FAILED to the restarted node (the flaw)', async () => {
    let keep = true;
    const resolvers: ((s: State) => void)[] = [];
    const workStates: string[] = [];
    const tree = new BehaviourTree(
      TREE,
      { Keep: () => keep, Work: () => new Promise<State>((resolve) => resolvers.push(resolve)) },
      { onNodeStateChange: (c) => void (c.type === 'action' && workStates.push(c.state)) },
    );
    tree.step(); // Work run 1
    keep = false;
    tree.step(); // the guard aborts run 1
    keep = true;
    tree.step(); // Work run 2
    expect(resolvers).toHaveLength(2);
    resolvers[0]!(State.FAILED); // run 1 settles late
    await Promise.resolve();
    tree.step();
    // Run 2 never settled, yet its node FAILED with run 1's result, and retry started run 3.
    expect(workStates).toEqual([State.RUNNING, State.READY, State.RUNNING, State.FAILED]);
    tree.step();
    expect(resolvers).toHaveLength(3);
  });

  it('Sinew drops the stale result: the second run’s result stands', async () => {
    let keep = true;
    const resolvers: ((v: boolean) => void)[] = [];
    const signals: AbortSignal[] = [];
    const tree = defineBehavior<Body, Record<string, never>>({
      tree: TREE,
      actions: {
        Work: (ctx: Ctx) => {
          ctx.body.chat(`work ${ctx.runId}`);
          signals.push(ctx.signal);
          return new Promise<boolean>((resolve) => resolvers.push(resolve));
        },
      },
      conditions: { Keep: () => keep },
    });
    const { run, clock, body } = harness(tree);
    const done = run();
    await clock.flush(); // Work run 1
    keep = false;
    await clock.advance(50); // tick: guard aborts run 1
    expect(signals[0]!.aborted).toBe(true);
    keep = true;
    await clock.advance(50); // tick: Work run 2
    expect(resolvers).toHaveLength(2);
    resolvers[0]!(false); // run 1 settles late with FAILED
    await clock.advance(50);
    resolvers[1]!(true);
    await clock.flush();
    const outcome = await done;
    expect(outcome.steps[0]).toMatchObject({ status: 'succeeded' });
    expect(body.calls).toEqual(['chat:work 1', 'chat:work 2']);
  });
});

describe('defineBehavior(): standalone', () => {
  it('runs without an executor on a plain RunContext and its own clock', async () => {
    const clock = new ManualClock();
    const tree = defineBehavior<{ n: number }, { add: number }>({
      tree: `root { sequence { wait [200] action [Add] } }`,
      actions: { Add: (ctx) => void (ctx.body.n += ctx.args.add) },
      clock,
    });
    const body = { n: 1 };
    // A RunContext without `clock` (only the executor's carries one): the tree falls back to its own.
    const { clock: _executorClock, ...plain } = createTestRunContext({ body, clock: new ManualClock(), step: { verb: 'add' } });
    const result = tree.run(plain, { add: 2 });
    await clock.advance(250);
    expect(await result).toBeUndefined();
    expect(body.n).toBe(3);
    expect(plain.transitions).toContain('root/sequence[0]/wait[0]=succeeded');
  });

  it('passes each node its MDSL arguments, whatever their number; exit callbacks get { succeeded, aborted } first', async () => {
    const seen: unknown[][] = [];
    const record = (...args: unknown[]) => void seen.push(args.slice(1));
    const tree = defineBehavior<{ n: number }, null>({
      tree: `root { sequence entry(Enter, "e") exit(Leave, 7) { action [Zero] action [One, "a"] condition [Two, 1, true] action [Five, 1, 2, 3, 4, "five"] } }`,
      actions: { Zero: record as never, One: record as never, Five: record as never },
      conditions: { Two: ((...args: unknown[]) => (record(...args), true)) as never },
      callbacks: { Enter: record as never, Leave: record as never },
    });
    const result = await tree.run(createTestRunContext({ body: { n: 0 }, clock: new ManualClock() }), null);
    expect(result).toBeUndefined();
    expect(seen).toEqual([['e'], [], ['a'], [1, true], [1, 2, 3, 4, 'five'], [{ succeeded: true, aborted: false }, 7]]);
  });

  it('an abort during a tick starts no further action: the tree halts from its root at once and exit callbacks run', async () => {
    const started: string[] = [];
    const exits: unknown[] = [];
    const ctx = createTestRunContext({ body: null, clock: new ManualClock() });
    const tree = defineBehavior<null, null>({
      tree: `root { sequence exit(Cleanup) { action [Cancel] condition [Fine] action [Dig] action [Dig] } }`,
      actions: {
        Cancel: () => (started.push('cancel'), ctx.abort(), true),
        Dig: () => void started.push('dig'),
      },
      conditions: { Fine: () => true },
      callbacks: { Cleanup: (_ctx, how: unknown) => void exits.push(how) },
    });
    const result = await tree.run(ctx, null);
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    expect(started).toEqual(['cancel']);
    expect(exits).toEqual([{ succeeded: false, aborted: true }]);
    expect(ctx.transitions).toContain('root/sequence[0]/action:Dig[2]=aborted');
    expect(ctx.transitions.at(-1)).toBe('root=failed');
  });

  it("a condition's context is its node's: read during the call, it throws once its run has ended", async () => {
    let kept: LeafContext<{ n: number }, null> | undefined;
    const tree = defineBehavior<{ n: number }, null>({
      tree: `root { sequence { condition [Positive] action [Inc] } }`,
      actions: { Inc: (ctx) => void (ctx.body.n += 1) },
      conditions: { Positive: (ctx) => ((kept = ctx), ctx.body.n > 0 && ctx.nodePath === 'root/sequence[0]/condition:Positive[0]') },
    });
    const body = { n: 1 };
    expect(await tree.run(createTestRunContext({ body, clock: new ManualClock() }), null)).toBeUndefined();
    expect(body.n).toBe(2);
    expect(() => kept!.body).toThrow(/root\/sequence\[0\]\/condition:Positive\[0\]: a condition's or callback's context was read after its run ended/);
  });

  it('is usable as defineCapability({ defineBehavior }) with a typed body', () => {
    const cap = defineCapability<typeof empty, Body, World>({
      name: 'noop_tree',
      version: '1.0.0',
      description: 'x',
      inputSchema: empty,
      behavior: defineBehavior<Body, Record<string, never>>({ tree: 'root { action [A] }', actions: { A: () => true } }),
      acceptance: () => accepted,
    });
    expect(cap.runnerKind).toBe('behavior-tree');
  });
});
