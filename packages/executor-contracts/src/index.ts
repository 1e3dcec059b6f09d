export { ERROR_CODES, ErrorCodeSchema, isRetryable, type ErrorCode } from './codes.js';
export {
  IntentSchema,
  PlanSchema,
  PlanStepSchema,
  RunnerResultSchema,
  SafetyLevelSchema,
  StepFailureSchema,
  StepOutcomeSchema,
  StepStatusSchema,
  Vec3Schema,
  WorldSnapshotSchema,
  ZodIssueSummarySchema,
  type Intent,
  type IntentInput,
  type Plan,
  type PlanInput,
  type PlanStep,
  type PlanStepInput,
  type RunnerResult,
  type SafetyLevel,
  type StepFailure,
  type StepFailureOf,
  type StepOutcome,
  type StepStatus,
  type Vec3,
  type WorldSnapshot,
  type ZodIssueSummary,
} from './schemas.js';
export { parsePlan } from './plan.js';
export {
  blockKey,
  BlockPosSchema,
  formatPredicate,
  ItemClassSchema,
  ItemNameSchema,
  ItemRefSchema,
  parseBlockKey,
  parsePredicate,
  PlaceholderSchema,
  PREDICATE_PREFIXES,
  PredicateSchema,
  PredicateStringSchema,
  PredicateTemplateSchema,
  type BlockPos,
  type ItemClass,
  type ItemRef,
  type Placeholder,
  type Predicate,
  type PredicateKind,
  type PredicateParse,
  type PredicateTemplate,
} from './predicates.js';
export { pred } from './pred.js';
export type { Declaration, SymbolicArgs } from './declarations.js';
export {
  describeError,
  describeValue,
  fail,
  runnerStepFailure,
  stepFailure,
  summarizeIssues,
  type RunnerFailure,
} from './failure.js';
export { ConfigError, parseConfig } from './config-error.js';
export {
  PLANNER_ERROR_CODES,
  PlannerErrorCodeSchema,
  PlannerFailureSchema,
  PlanResultSchema,
  type PlannerErrorCode,
  type PlannerFailure,
  type PlanResult,
} from './planning.js';
export { ManualClock, settleWithin, systemClock, type Clock, type TimerHandle } from './clock.js';
export { blackboardKey, createBlackboard, type Blackboard, type BlackboardKey } from './blackboard.js';
export {
  accepted,
  capabilityFactory,
  CapabilityDefinitionError,
  defineCapability,
  effectsUnmet,
  guardFailed,
  guardOk,
  isUnverified,
  precondMissing,
  unverified,
  type AcceptanceFn,
  type AcceptanceResult,
  type BehaviorRunner,
  type Capability,
  type CapabilityDefinition,
  type GuardContext,
  type GuardResult,
  type Logger,
  type RunContext,
  type Runner,
  type StepInfo,
  type UnverifiedAcceptance,
} from './capability.js';
export {
  CanaryOptionsSchema,
  CapabilityRegistry,
  ManifestSchema,
  RegistryError,
  type Canary,
  type CanaryOptions,
  type CanaryOptionsInput,
  type Manifest,
  type Resolution,
  type ToolDefinition,
} from './registry.js';
export {
  BackoffSchema,
  CapabilityRetrySchema,
  MAX_TIMER_MS,
  RETRY_POLICY_DEFAULTS,
  RetryPolicySchema,
  timerMsSchema,
  type Backoff,
  type CapabilityRetry,
  type RetryPolicy,
} from './retry.js';
export { checkAcceptance, checkArgs, checkStep, runGuard, type StepCheck } from './checks.js';
export type { Preemptor, PreemptOptions, RepairHook, RepairRequest, RepairResponse } from './hooks.js';
export {
  checkVerbs,
  PlannerVerbSchema,
  VerbFindingKindSchema,
  VerbFindingSchema,
  VerbReportSchema,
  VerbSourceSchema,
  type PlannerVerb,
  type VerbCheckInput,
  type VerbFinding,
  type VerbFindingKind,
  type VerbReport,
  type VerbSource,
} from './gate/check.js';
export { formatVerbReport, VerbReportFormatSchema, type VerbReportFormat } from './gate/format.js';
export { locateVerb, scanVerbLiterals } from './gate/scan.js';
export { fnv1a, fnv1a64, mulberry32 } from './random.js';
