export { jsonlJournal, type JsonlJournalOptions } from './jsonl.js';
export type { UnfinishedPlan } from './journal.js';
export { JournalRecordSchema, memoryJournal, parseJournal, type JournalRead, type JournalRecord, type JournalStore } from './records.js';
