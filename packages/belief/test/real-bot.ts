import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, type SinewBot } from '@sinew/capabilities';
import { connectBot, startServer, type TestServer } from '@sinew/testkit';
import type { ModeEvent, ModesOverrides } from '@sinew/belief';
import { attachBelief, attachModes, type AttachedModes, type BeliefAdapter } from '@sinew/belief/mineflayer';

/** A real bot on the embedded server with the real executor, belief adapter and modes (started), and its teardown. */
export interface ModesBot {
  readonly server: TestServer;
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  readonly belief: BeliefAdapter;
  readonly modes: AttachedModes;
  stop(): Promise<void>;
}

/** Starts a server and a bot whose modes report to `events` (config overrides on the default profile). */
export async function startModesBot(username: string, events: ModeEvent[], config?: ModesOverrides): Promise<ModesBot> {
  const server = await startServer();
  const bot = instrumentBot(await connectBot(server, { username }));
  const executor = createExecutor({ registry: createStandardRegistry(), body: bot, policy: { maxLocalRetries: 0 } });
  const belief = attachBelief(bot);
  const modes = attachModes(bot, { preemptor: executor, belief, ...(config ? { config } : {}), onEvent: (e) => events.push(e) });
  belief.start();
  const stop = async () => {
    modes.detach();
    belief.stop();
    await modes.idle();
    await executor.close();
    bot.quit();
    await server.stop();
  };
  return { server, bot, executor, belief, modes, stop };
}
