import { createBot, type Bot } from 'mineflayer';
import { TestkitError } from './errors.js';
import type { TestServer } from './server.js';

/** Runs helpers against an external (e.g. vanilla) server through chat commands of an operator bot. */
export interface ExternalControl {
  /** Sends one command (without the leading slash) as the operator and waits a few ticks. */
  command(command: string): Promise<void>;
  close(): void;
}

/** The operator's username; make it op on the external server (`/op sinew_op`). */
export const EXTERNAL_OPERATOR = process.env.SINEW_MC_OPERATOR ?? 'sinew_op';

/** Creates the command channel to an external server; the operator bot connects on first use. */
export function connectExternal(server: TestServer): ExternalControl {
  let operator: Promise<Bot> | null = null;
  const connect = (): Promise<Bot> =>
    new Promise<Bot>((resolve, reject) => {
      const bot = createBot({
        host: server.host,
        port: server.port,
        username: EXTERNAL_OPERATOR,
        version: server.version,
        auth: 'offline',
        hideErrors: true,
      });
      bot.once('spawn', () => resolve(bot));
      bot.once('kicked', (reason) => reject(new TestkitError('spawn_timeout', `operator kicked: ${String(reason)}`)));
      bot.once('error', reject);
    });
  return {
    async command(command) {
      operator ??= connect();
      const bot = await operator;
      bot.chat(`/${command}`);
      await bot.waitForTicks(4);
    },
    close() {
      void operator?.then((bot) => bot.quit()).catch(() => undefined);
      operator = null;
    },
  };
}
