export { createJsonlJournal, type JsonlJournalOptions } from './jsonl.js';
export type { UnfinishedPlan } from './journal.js';
export { JournalWriteError } from './records.js';
export { createMemoryJournal, JournalRecordSchema, parseJournal, type ClaimedStep, type JournalRead, type JournalRecord, type JournalStore } from './records.js';
