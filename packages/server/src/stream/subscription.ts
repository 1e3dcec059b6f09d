import { z } from 'zod';
import { issuesOf } from '../http/reply.js';
import { EVENT_TYPES } from './sources.js';

/** The stream's own envelopes (`stream.hello`, `stream.subscribed`, `stream.error`): every client gets them, whatever it subscribed to. */
const CONTROL_PREFIX = 'stream.';

/** The event types a client may subscribe to: every type the stream carries but its own control envelopes. */
const SUBSCRIBABLE_TYPES = EVENT_TYPES.filter((type) => !type.startsWith(CONTROL_PREFIX)) as Exclude<(typeof EVENT_TYPES)[number], `stream.${string}`>[];

/** A list of event types (no `stream.*`), at least one. */
const TypeListSchema = z
  .array(z.enum(SUBSCRIBABLE_TYPES as [string, ...string[]]))
  .min(1, 'name at least one event type, or "*" for every type')
  .max(64);
/**
 * What a client sends on `/api/events` to choose the events it gets (a text frame of JSON):
 * `{ "type": "subscribe", "types": ["step.failed", "executionComplete"] }`, or `"types": "*"` for every type (the
 * default of a new connection). Unknown keys and unknown types are refused with a `stream.error`.
 */
export const SubscribeMessageSchema = z
  .object({
    type: z.literal('subscribe'),
    types: z.union([z.literal('*'), TypeListSchema], { error: 'types is "*" (every type) or a list of event types' }),
  })
  .strict();
/** The same message with a list of types: its issues name the entry that is wrong (a union says only that none matched). */
const TypeListMessageSchema = SubscribeMessageSchema.extend({ types: TypeListSchema });
/** A subscription message, as `SubscribeMessageSchema` parses it. */
export type SubscribeMessage = z.infer<typeof SubscribeMessageSchema>;

/** The event types one client receives; clients with equal subscriptions share one (same `key`) and share their frames. */
export class Subscription {
  static readonly ALL = new Subscription('*');
  /** `*`, or the sorted types joined by commas. */
  readonly key: string;
  readonly types: '*' | readonly string[];
  readonly #types: ReadonlySet<string> | undefined;

  constructor(types: '*' | readonly string[]) {
    this.types = types === '*' ? '*' : [...new Set(types)].sort();
    this.key = this.types === '*' ? '*' : this.types.join(',');
    this.#types = this.types === '*' ? undefined : new Set(this.types);
  }

  wants(type: string): boolean {
    return this.#types === undefined || this.#types.has(type);
  }
}

/** The data of a `stream.error`: the same `{ error: { code, message, issues? } }` shape the HTTP API answers with. */
export interface StreamError {
  readonly error: { readonly code: 'invalid_message'; readonly message: string; readonly issues?: ReturnType<typeof issuesOf> };
}

/** Reads one client message: a subscription, or the error to send back (the connection and its subscription stay). */
export function readClientMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): { ok: true; subscription: Subscription } | { ok: false; refusal: StreamError } {
  if (isBinary) return refusal('send a text frame of JSON, e.g. {"type":"subscribe","types":["executionComplete"]}');
  const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return refusal(`the message is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = SubscribeMessageSchema.safeParse(json);
  if (parsed.success) return { ok: true, subscription: new Subscription(parsed.data.types) };
  const listed = Array.isArray((json as { types?: unknown } | null)?.types) ? TypeListMessageSchema.safeParse(json) : parsed;
  const error = listed.error ?? parsed.error;
  return refusal(`invalid subscription (the previous one stays): ${z.prettifyError(error)}`, issuesOf(error));
}

function refusal(message: string, issues?: StreamError['error']['issues']): { ok: false; refusal: StreamError } {
  return { ok: false, refusal: { error: { code: 'invalid_message', message, ...(issues ? { issues } : {}) } } };
}
