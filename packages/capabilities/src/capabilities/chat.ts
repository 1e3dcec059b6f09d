import { accepted, effectsUnmet } from '@sinew/executor-contracts';
import { z } from 'zod';
import { ABORTED, defineBotCapability, pause } from '../body.js';
import { observeWorld } from '../world.js';

export const ChatArgsSchema = z.object({
  message: z.string().min(1).max(256),
});
export type ChatArgs = z.output<typeof ChatArgsSchema>;

const ECHO_WAIT_MS = 2_000;
const ECHO_POLL_MS = 50;

function echoes(lines: readonly string[] | undefined, message: string): number {
  return (lines ?? []).filter((line) => line.includes(message)).length;
}

/** Says something in chat and waits for the server to echo it back. */
export const chat = defineBotCapability({
  name: 'chat',
  version: '1.0.0',
  description: 'Send a chat message; succeeds when the server echoes it back.',
  inputSchema: ChatArgsSchema,
  expectedDurationMs: 5_000,
  effects: ['chat:echoed'],
  observe: ({ body }) => observeWorld(body, { chat: true }),
  run: async (ctx, args) => {
    const bot = ctx.body;
    const before = echoes(bot.sinewChatLog, args.message);
    bot.chat(args.message);
    for (let waited = 0; waited < ECHO_WAIT_MS && echoes(bot.sinewChatLog, args.message) <= before; waited += ECHO_POLL_MS) {
      if (ctx.signal.aborted) return ABORTED;
      await pause(ECHO_POLL_MS, ctx.signal);
    }
    return { ok: true };
  },
  acceptance: (pre, post, args) =>
    echoes(post.chat, args.message) > echoes(pre.chat, args.message)
      ? accepted
      : effectsUnmet(['chat:echoed'], 'the server did not echo the message'),
});
