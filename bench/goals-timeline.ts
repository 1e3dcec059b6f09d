// Where a demo run's printed timeline goes in the goal benches (goals, techtree): a file of the traces folder, ended
// and flushed before the next run (the last lines reach the disk even when the bench exits right after), or nowhere.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** A run's timeline sink: `out` for `runDemo`, `close()` to end it — rejects, naming the file, when a write failed. */
export interface Timeline {
  readonly out: NodeJS.WriteStream;
  close(): Promise<void>;
}

/** The timeline of one run: `<dir>/<name>` when a traces folder is given, else dropped. */
export function timeline(dir: string | undefined, name: string): Timeline {
  if (!dir) return { out: new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream, close: async () => {} };
  const path = join(dir, name);
  const stream = createWriteStream(path);
  // A write error is kept for close() (an 'error' with no listener would end the process with no goal named).
  let failure: Error | undefined;
  stream.on('error', (error) => void (failure ??= error));
  return {
    out: stream as unknown as NodeJS.WriteStream,
    async close() {
      if (!failure) {
        stream.end();
        await finished(stream).catch((error: unknown) => void (failure ??= error as Error));
      }
      if (failure) throw new Error(`timeline ${path}: ${failure.message}`, { cause: failure });
    },
  };
}
