import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { formatPredicate, parsePredicate, type StepOutcome } from '@sinew/executor-contracts';
import { connectBot, reset, startServer, waitUntil as waitTicks, type StartServerOptions, type TestServer } from '@sinew/testkit';
import { createStandardRegistry, instrumentBot, type SinewBot } from '../src/index.js';

/** One embedded server, one instrumented bot and one real executor per test file. */
export interface TestWorld {
  readonly server: TestServer;
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  /** Runs one step through the executor (V1–V4, watchdogs, acceptance) and returns its outcome. */
  step(type: string, args: Record<string, unknown>): Promise<StepOutcome>;
  /** Clears the area, the inventory and the mobs, and puts the bot back at spawn. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

let planSeq = 0;

/** Issue 17: every `missing`/`unmet` a capability reports parses, and formats back to the same predicate. */
function expectPredicates(step: StepOutcome): void {
  for (const text of [...(step.failure?.missing ?? []), ...(step.failure?.unmet ?? [])]) {
    const parsed = parsePredicate(text);
    if (!parsed.ok) throw new Error(`${step.verb} reported an unparseable predicate: ${parsed.reason}`);
    const again = parsePredicate(formatPredicate(parsed.predicate));
    if (JSON.stringify(again) !== JSON.stringify(parsed)) throw new Error(`${step.verb}: ${text} does not survive parse ∘ format`);
  }
}

/** Starts the server (superflat unless `options` say otherwise) and bot; retries are off so failure paths end in their first code. */
export async function startWorld(username = 'sinew', options: StartServerOptions = {}): Promise<TestWorld> {
  const server = await startServer(options);
  const bot = instrumentBot(await connectBot(server, { username }));
  const current = { bot, executor: createExecutor({ registry: createStandardRegistry(), body: bot, policy: { maxLocalRetries: 0 } }) };
  return {
    server,
    get bot() {
      return current.bot;
    },
    get executor() {
      return current.executor;
    },
    async step(type, args) {
      const { executor } = current;
      planSeq += 1;
      const outcome = await executor.run({ planId: `p${planSeq}`, intentId: 'test', steps: [{ stepId: 's1', type, args }] });
      const step = outcome.steps.at(-1);
      if (!step) throw new Error(`plan produced no step outcome: ${JSON.stringify(outcome)}`);
      expectPredicates(step);
      return step;
    },
    async reset() {
      const { bot } = current;
      bot.pathfinder.setGoal(null);
      bot.clearControlStates();
      await reset(server);
      // Wait until the bot stands (digging mid-air is 5× slower) at spawn with an empty inventory.
      await waitUntil(
        server,
        () => bot.entity.onGround && bot.entity.position.distanceTo(server.spawn) < 1.5 && bot.inventory.items().length === 0,
        100,
      );
    },
    async close() {
      await current.executor.close();
      current.bot.quit();
      await server.stop();
    },
  };
}

/**
 * Registers this file's world: started once before all tests, reset before each, closed after all.
 * Returns a handle whose members reach the started world (they throw outside a test). A generated world
 * (`server: { world: { generator: 'terrain', … } }`) is not reset between tests: reset removes its animals.
 */
export function useWorld(username?: string, options: { server?: StartServerOptions } = {}): TestWorld {
  const generated = options.server?.world?.generator === 'terrain';
  let started: TestWorld | undefined;
  const get = (): TestWorld => {
    if (!started) throw new Error('the test world is not started: use it inside a test or hook');
    return started;
  };
  beforeAll(async () => {
    started = await startWorld(username, options.server);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(async () => {
    if (!generated) await get().reset();
  });
  return {
    get server() {
      return get().server;
    },
    get bot() {
      return get().bot;
    },
    get executor() {
      return get().executor;
    },
    step: (type, args) => get().step(type, args),
    reset: () => get().reset(),
    close: () => get().close(),
  };
}

/**
 * Resolves once `done()` holds — read at once and after every server tick — and throws after `withinTicks` ticks: the
 * budget is the world's time (a loaded machine's slower ticks stretch it), not the wall's.
 */
export async function waitUntil(server: TestServer, done: () => boolean, withinTicks: number): Promise<void> {
  if (!(await waitTicks(server, done, withinTicks))) throw new Error(`condition not met within ${withinTicks} server ticks`);
}

/** How many of an item the bot holds, over all its stacks. */
export function countItem(bot: SinewBot, name: string): number {
  return bot.inventory.items().reduce((n, item) => (item.name === name ? n + item.count : n), 0);
}
