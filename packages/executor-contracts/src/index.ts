export { ERROR_CODES, ErrorCodeSchema, isRetryable, type ErrorCode } from './codes.js';
export {
  ActionResultSchema,
  IntentSchema,
  PlanSchema,
  PlanStepSchema,
  SafetyLevelSchema,
  StepFailureSchema,
  StepOutcomeSchema,
  StepStatusSchema,
  ZodIssueSummarySchema,
  type ActionResult,
  type Intent,
  type IntentInput,
  type Plan,
  type PlanInput,
  type PlanStep,
  type PlanStepInput,
  type SafetyLevel,
  type StepFailure,
  type StepOutcome,
  type StepStatus,
  type ZodIssueSummary,
} from './schemas.js';
export { describeError, stepFailure, summarizeIssues } from './failure.js';
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
  type CapabilityRetry,
  type GuardContext,
  type GuardResult,
  type Logger,
  type RunContext,
  type Runner,
  type RunnerResult,
  type StepInfo,
  type UnverifiedAcceptance,
} from './capability.js';
export {
  CapabilityRegistry,
  ManifestSchema,
  RegistryError,
  type Manifest,
  type Resolution,
  type ToolDefinition,
} from './registry.js';
export { checkAcceptance, checkArgs, checkStep, runGuard, type StepCheck } from './checks.js';
export { compareVersions, parseRange, parseVersion, satisfies } from './semver.js';
export type { Preemptor, RepairHook, RepairRequest, RepairResponse } from './hooks.js';
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
