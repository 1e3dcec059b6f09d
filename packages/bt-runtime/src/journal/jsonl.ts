import * as fs from 'node:fs';
import * as path from 'node:path';
import { JournalWriteError, parseJournal, type JournalRead, type JournalRecord, type JournalStore } from './records.js';

/** Options of `createJsonlJournal`. */
export interface JsonlJournalOptions {
  /** fsync after every record (default true): a record appended is on disk before the executor goes on. */
  readonly fsync?: boolean;
}

/**
 * An append-only JSONL journal file; created (with its directory) when missing. A write that does not land
 * whole (disk full, file-size limit, a short write, a failed fsync) throws a `JournalWriteError`, and the file
 * is cut back to where the record began, so a torn record never swallows the next one.
 */
export function createJsonlJournal(file: string, options: JsonlJournalOptions = {}): JournalStore {
  const fsync = options.fsync ?? true;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let fd = fs.openSync(file, 'a+');
  let size = fs.fstatSync(fd).size;
  // A torn last line (the process died mid-write) must not swallow the next record.
  let torn = size > 0 && !endsWithNewline(fd, size);
  let closed = false;
  const open = () => {
    if (closed) throw new Error(`createJsonlJournal: ${file} is closed`);
  };
  return {
    append(record: JournalRecord) {
      open();
      const line = Buffer.from(`${torn ? '\n' : ''}${JSON.stringify(record)}\n`);
      try {
        writeWhole(fd, line);
        if (fsync) fs.fsyncSync(fd);
        size += line.length;
        torn = false;
      } catch (error) {
        // Cut the partial record off; if even that fails, the next append starts on a fresh line.
        torn = !truncateTo(fd, size);
        throw new JournalWriteError(file, record.kind, error);
      }
    },
    readAll: (): JournalRead => parseJournal(fs.readFileSync(file, 'utf8')),
    compact(records: readonly JournalRecord[]) {
      open();
      // Written beside the journal, synced, then renamed over it: a crash leaves the old file or the new one.
      const next = `${file}.compact`;
      try {
        fs.writeFileSync(next, records.map((record) => `${JSON.stringify(record)}\n`).join(''), { flush: true });
        fs.renameSync(next, file);
      } catch (error) {
        fs.rmSync(next, { force: true });
        throw new JournalWriteError(file, 'compaction', error);
      }
      fs.closeSync(fd);
      fd = fs.openSync(file, 'a+');
      size = fs.fstatSync(fd).size;
      torn = false;
    },
    close() {
      if (closed) return;
      closed = true;
      fs.closeSync(fd);
    },
  };
}

/** Writes every byte or throws: `writeSync` may write part of the buffer (a file-size limit, a full disk). */
function writeWhole(fd: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) {
    const written = fs.writeSync(fd, buffer, offset, buffer.length - offset);
    if (written <= 0) throw Object.assign(new Error(`short write: ${offset} of ${buffer.length} bytes`), { code: 'ESHORTWRITE' });
    offset += written;
  }
}

function truncateTo(fd: number, size: number): boolean {
  try {
    fs.ftruncateSync(fd, size);
    return true;
  } catch {
    return false;
  }
}

function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}
