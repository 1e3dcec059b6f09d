import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJournal, type JournalRead, type JournalRecord, type JournalStore } from './records.js';

export interface JsonlJournalOptions {
  /** fsync after every record (default true): a record appended is on disk before the executor goes on. */
  readonly fsync?: boolean;
}

/** An append-only JSONL journal file; created (with its directory) when missing. */
export function createJsonlJournal(file: string, options: JsonlJournalOptions = {}): JournalStore {
  const fsync = options.fsync ?? true;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a+');
  // A torn last line (the process died mid-write) must not swallow the next record.
  const size = fs.fstatSync(fd).size;
  if (size > 0 && !endsWithNewline(fd, size)) fs.writeSync(fd, '\n');
  let closed = false;
  return {
    append(record: JournalRecord) {
      if (closed) throw new Error(`createJsonlJournal: ${file} is closed`);
      fs.writeSync(fd, `${JSON.stringify(record)}\n`);
      if (fsync) fs.fsyncSync(fd);
    },
    readAll: (): JournalRead => parseJournal(fs.readFileSync(file, 'utf8')),
    close() {
      if (closed) return;
      closed = true;
      fs.closeSync(fd);
    },
  };
}

function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}
