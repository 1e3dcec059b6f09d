export { createRedisJournal, FleetWriteError, RedisJournalOptionsSchema, type FleetJournal, type PlanLease, type PreviousDispatch, type RedisJournalOptions, type StepClaim } from './journal.js';
export { createFleetQueue, FleetQueueOptionsSchema, type FleetQueue, type FleetQueueOptions, type FleetSubmission, type SubmitOptions } from './queue.js';
export { createFleetWorker, type FleetEvent, type FleetExecutorContext, type FleetWorker, type FleetWorkerOptions } from './worker.js';
export { recoverStep, rerunSafe, type RecoveryVerdict, type StepRecovery } from './recovery.js';
