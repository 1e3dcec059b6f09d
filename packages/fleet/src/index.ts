export { createRedisJournal, FleetWriteError, RedisJournalOptionsSchema, type FleetJournal, type PlanLease, type RedisJournalOptions, type StepClaim } from './journal.js';
