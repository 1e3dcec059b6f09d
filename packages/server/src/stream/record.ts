import { createWriteStream, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeError } from '@sinew/executor-contracts';
import { ServerOptionsError } from '../options.js';
import type { EventHub } from './hub.js';

/** The header line of a recording: what a replay needs that the events do not carry (the trees' node paths). */
export const RECORDING_HEADER = 'recording.started';

/** A recording being written; `close()` flushes it and rejects with the first write error, if any. */
export interface Recording {
  close(): Promise<void>;
}

/**
 * Appends the hub's events to `file`, one envelope per line, after a header line with the epoch and the trees.
 * The file is opened before the server listens, so an unwritable path fails `serveSinew` at once.
 */
export function recordHub(hub: EventHub, file: string, trees: Readonly<Record<string, readonly string[]>>): Recording {
  let fd: number;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(file, 'a');
  } catch (error) {
    throw ServerOptionsError.field('serveSinew', ['record'], `cannot open ${JSON.stringify(file)}: ${describeError(error)}`);
  }
  const out = createWriteStream('', { fd });
  let failure: Error | undefined;
  out.on('error', (error) => (failure ??= error));
  out.write(`${hub.header(RECORDING_HEADER, { epoch: hub.epoch, trees })}\n`);
  hub.record((text) => {
    // After close() (a late planGenerated or reflex event) nothing is written: the file is complete.
    if (failure === undefined && !out.writableEnded) out.write(`${text}\n`);
  });
  return {
    close: () =>
      new Promise<void>((resolve, reject) => {
        out.once('close', () => (failure ? reject(new Error(`serveSinew: record ${file}: ${failure.message}`, { cause: failure })) : resolve()));
        out.end();
      }),
  };
}
