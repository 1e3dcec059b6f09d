import { accepted, effectsUnmet, pred } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { ChatLine } from '../bot.js';
import { defineBotCapability, targetMemo } from '../body.js';
import { ABORTED } from '../body/failures.js';
import { waitFor } from '../body/waiting.js';
import { observeWorld } from '../world.js';

/** Arguments of `chat`. */
export const ChatArgsSchema = z.strictObject({
  message: z.string().min(1).max(256),
});
export type ChatArgs = z.output<typeof ChatArgsSchema>;

const ECHO_WAIT_MS = 2_000;
const ECHO_POLL_MS = 50;

// Acceptance has no body: observe remembers whose echo these args wait for.
const speakers = targetMemo<string>();

/** The line the server sends back for our own message (vanilla and flying-squid format player chat as `<name> text`). */
function echoLine(username: string, message: string): string {
  return `<${username}> ${message}`;
}

function lastSeq(lines: readonly ChatLine[] | undefined): number {
  return (lines ?? []).reduce((max, { seq }) => Math.max(max, seq), 0);
}

/** Whether a line newer than `afterSeq` is exactly our echo: other players' lines and ring shifts cannot fool it. */
function echoed(lines: readonly ChatLine[] | undefined, afterSeq: number, expected: string): boolean {
  return (lines ?? []).some(({ seq, line }) => seq > afterSeq && line === expected);
}

/** Says something in chat and waits for the server to echo it back. */
export const chat = defineBotCapability({
  name: 'chat',
  version: '1.0.0',
  description: 'Send a chat message; succeeds when the server echoes it back.',
  inputSchema: ChatArgsSchema,
  expectedDurationMs: 5_000,
  effects: () => [pred.chatEchoed()],
  observe: ({ body }, args) => {
    if (!speakers.get(args)) speakers.set(args, body.username);
    return observeWorld(body, { chat: true });
  },
  run: async (ctx, args) => {
    const bot = ctx.body;
    const before = lastSeq(bot.sinew.chatLog);
    const expected = echoLine(bot.username, args.message);
    bot.chat(args.message);
    await waitFor(ctx, () => echoed(bot.sinew.chatLog, before, expected), ECHO_WAIT_MS, ECHO_POLL_MS);
    return ctx.signal.aborted ? ABORTED : { ok: true };
  },
  acceptance: (pre, post, args) => {
    const username = speakers.get(args);
    if (username === undefined) return effectsUnmet([pred.chatEchoed()], 'the speaker was not observed before chatting');
    return echoed(post.chat, lastSeq(pre.chat), echoLine(username, args.message))
      ? accepted
      : effectsUnmet([pred.chatEchoed()], `the server did not echo "${echoLine(username, args.message)}" after line ${lastSeq(pre.chat)}`);
  },
});
