// ManualClock and systemClock are @sinew/executor-contracts' (one home per name); the types stay here too.
export type { Clock, TimerHandle } from './clock/clock.js';
export {
  emitActuatorCommand,
  InstrumentError,
  instrumentMethods,
  leasedView,
  StaleActuationError,
  type ActuatorCommand,
  type ActuatorLease,
  type ActuatorSource,
  type BodySignals,
  type InstrumentOptions,
} from './body/instrument.js';
export {
  defineExecutorPolicy,
  ExecutorPolicySchema,
  PolicyError,
  type ExecutorPolicy,
  type ExecutorPolicyInput,
} from './executor/policy.js';
export { createExecutor } from './executor/executor.js';
export { URGENCY_PRIORITY } from './executor/safety-level.js';
export {
  createJsonlJournal,
  createMemoryJournal,
  JournalRecordSchema,
  JournalWriteError,
  parseJournal,
  type ClaimedStep,
  type JournalRead,
  type JournalRecord,
  type JournalStore,
  type JsonlJournalOptions,
  type UnfinishedPlan,
} from './journal/index.js';
export { StepAbortError } from './executor/attempt-result.js';
export type { CapabilityHealth } from './executor/health.js';
export type {
  ActiveStepState,
  Executor,
  ExecutorEventName,
  ExecutorEvents,
  ExecutorOptions,
  ExecutorRunContext,
  ExecutorState,
  HealthReport,
  PlanOutcome,
  PlanStatus,
  PredicateEvaluator,
  RunOptions,
  StepRef,
} from './executor/types.js';
export {
  BehaviorDefinitionError,
  behaviorNodePaths,
  BehaviorNodeError,
  defineBehavior,
  type BehaviorAction,
  type BehaviorCallback,
  type BehaviorCondition,
  type BehaviorOptions,
  type BehaviorTreeRunner,
  type LeafContext,
  type LeafStatus,
  type NodeArgument,
} from './bt/behavior.js';
export { createExecutorMetrics, type ExecutorMetrics } from './metrics/metrics.js';
export { createHtnMetrics, type HtnMetrics, type UpliftSource } from './metrics/htn.js';
export { createRouterMetrics, type RouteEventLike, type RouterMetrics } from './metrics/router.js';
export {
  createCallbackProvenance,
  createJsonlProvenance,
  createMemoryProvenance,
  type MemoryProvenance,
  type ProvenanceRecord,
  type ProvenanceSink,
  type TraceEntry,
} from './provenance/provenance.js';
