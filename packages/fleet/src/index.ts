export { createRedisJournal, FleetWriteError, RedisJournalOptionsSchema, type FleetJournal, type PlanLease, type RedisJournalOptions, type StepClaim } from './journal.js';
export { createFleetQueue, FleetQueueOptionsSchema, type FleetQueue, type FleetQueueOptions, type FleetSubmission } from './queue.js';
export { createFleetWorker, type FleetEvent, type FleetWorker, type FleetWorkerOptions } from './worker.js';
