/** Version of the event envelope; bumped on any incompatible change of `{ v, seq, ts, type, data }`. */
export const EVENT_STREAM_VERSION = 1;

/**
 * One event on `/api/events`. `seq` increases by one per event; `stream.hello`, `stream.subscribed` and
 * `stream.error` repeat the last seq (a subscribed client sees only the seqs of its types: gaps are expected).
 * A WebSocket message carries one or more envelopes, one JSON object per line.
 */
export interface EventEnvelope<Type extends string = string, Data = unknown> {
  readonly v: typeof EVENT_STREAM_VERSION;
  readonly seq: number;
  readonly ts: number;
  readonly type: Type;
  readonly data: Data;
}

// `,"type":"…","data":` per event type, built once.
const typeHeads = new Map<string, string>();

/**
 * `{ v, seq, ts, type, data }` as JSON, written around one `JSON.stringify` of the payload (no envelope
 * object); a payload that cannot be serialized (a cycle, a BigInt) becomes a note, never a throw.
 */
export function envelope(seq: number, ts: number, type: string, data: unknown): string {
  let typeHead = typeHeads.get(type);
  if (typeHead === undefined) typeHeads.set(type, (typeHead = `,"type":${JSON.stringify(type)}`));
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch (error) {
    json = JSON.stringify({ unserializable: error instanceof Error ? error.message : String(error) });
  }
  const head = '{"v":' + EVENT_STREAM_VERSION + ',"seq":' + seq + ',"ts":' + ts + typeHead;
  return json === undefined ? head + '}' : head + ',"data":' + json + '}';
}
