import { createBot, type Bot } from 'mineflayer';
import { TestkitError } from './errors.js';
import type { TestServer } from './server.js';

/** Runs helpers against an external (e.g. vanilla) server through chat commands of an operator bot. */
export interface ExternalControl {
  /**
   * Sends one command (without the leading slash) as the operator and waits for its feedback; a red
   * (failure) reply throws `external_command_failed` unless it matches `accept` (e.g. "No blocks were filled").
   */
  command(command: string, options?: { readonly accept?: RegExp }): Promise<string[]>;
  close(): void;
}

/** How the operator confirms that the server handled a command: a command with a known, always-sent reply. */
export interface ExternalProbe {
  readonly command: string;
  readonly reply: RegExp;
}

export interface ExternalOptions {
  /** How long connecting the operator, and each command's feedback, may take (default 15 000 ms). */
  readonly timeoutMs?: number;
  /** Sent after every command; the replies before its own are the command's feedback (default `/time query daytime`). */
  readonly probe?: ExternalProbe;
}

/** The operator's username; make it op on the external server (`/op sinew_op`). */
export const EXTERNAL_OPERATOR = process.env.SINEW_MC_OPERATOR ?? 'sinew_op';

/** Vanilla's red replies that only say the world already was that way (idempotent setup commands). */
export const ALREADY_SO = /^(No blocks were filled|Could not set the block|No entity was found|No items were found)/;

// Answered by vanilla ("The time is 1000") and by flying-squid ("It is 1000"), never red.
const TIME_PROBE: ExternalProbe = { command: 'time query daytime', reply: /^(The time is|It is) -?\d+$/ };

/** Creates the command channel to an external server; the operator bot connects on first use (again after a failure). */
export function connectExternal(server: TestServer, options: ExternalOptions = {}): ExternalControl {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const probe = options.probe ?? TIME_PROBE;
  let operator: Promise<Bot> | null = null;
  let closed = false;

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
      const fail = (error: Error): void => {
        clearTimeout(timer);
        bot.removeAllListeners('spawn');
        // Late socket errors of the abandoned bot must not become unhandled 'error' events.
        bot.on('error', () => undefined);
        bot.quit();
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new TestkitError('external_timeout', `operator ${EXTERNAL_OPERATOR} did not spawn on ${server.host}:${server.port} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      bot.once('spawn', () => {
        clearTimeout(timer);
        resolve(bot);
      });
      bot.once('kicked', (reason) => fail(new TestkitError('spawn_timeout', `operator kicked: ${String(reason)}`)));
      bot.once('error', (error) => fail(error));
    });

  const operatorBot = (): Promise<Bot> => {
    if (closed) return Promise.reject(new TestkitError('server_stopped', 'the external control is closed'));
    if (!operator) {
      const attempt = connect();
      operator = attempt;
      // A failed connection is not cached: the next command tries again.
      attempt.catch(() => {
        if (operator === attempt) operator = null;
      });
    }
    return operator;
  };

  return {
    async command(command, commandOptions = {}) {
      const bot = await operatorBot();
      const replies: { text: string; failed: boolean }[] = [];
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error): void => {
          clearTimeout(timer);
          bot.off('message', onMessage);
          if (error) reject(error);
          else resolve();
        };
        const onMessage = (message: { toString(): string; json?: unknown }, position: string): void => {
          if (position === 'chat') return;
          const text = message.toString();
          if (probe.reply.test(text)) return done();
          replies.push({ text, failed: isFailure(message.json, text) });
        };
        const timer = setTimeout(
          () => done(new TestkitError('external_timeout', `/${command}: no feedback within ${timeoutMs} ms (replies so far: ${JSON.stringify(replies.map((r) => r.text))})`)),
          timeoutMs,
        );
        bot.on('message', onMessage);
        bot.chat(`/${command}`);
        bot.chat(`/${probe.command}`);
      });
      const failure = replies.find((r) => r.failed && !(commandOptions.accept?.test(r.text) ?? false));
      if (failure) throw new TestkitError('external_command_failed', `/${command} failed: ${failure.text}`);
      return replies.map((r) => r.text);
    },
    close() {
      closed = true;
      void operator?.then((bot) => bot.quit()).catch(() => undefined);
      operator = null;
    },
  };
}

/** Vanilla marks command failures red (CommandSourceStack.sendFailure); legacy servers use §c, flying-squid &c. */
function isFailure(json: unknown, text: string): boolean {
  const redCode = (value: unknown): boolean => typeof value === 'string' && /^[\u00a7&]c/.test(value);
  if (redCode(text)) return true;
  const component = json as { color?: unknown; text?: unknown; extra?: unknown[] } | undefined;
  if (!component || typeof component !== 'object') return false;
  const first = Array.isArray(component.extra) ? (component.extra[0] as { color?: unknown; text?: unknown } | undefined) : undefined;
  return component.color === 'red' || redCode(component.text) || first?.color === 'red' || redCode(first?.text);
}
