export {
  planFailure,
  PlannerWorldSchema,
  readPlanResult,
  ThreatSchema,
  type Planner,
  type PlannerErrorCode,
  type PlannerFailure,
  type PlannerWorld,
  type PlanResult,
  type Threat,
} from './contract.js';
export {
  contextKey,
  loadOutcomeMemory,
  OutcomeMemory,
  OutcomeMemoryFileSchema,
  type OutcomeMemoryError,
  type OutcomeMemoryFile,
  type OutcomeStats,
} from './memory/outcomes.js';
export { type MethodUplift, type UpliftOptions } from './memory/uplift.js';
export {
  createRouter,
  DEFAULT_ROUTING_RULES,
  type RouteCandidate,
  type RouteEvent,
  type Router,
  type RouterOptions,
  type RouteRule,
} from './router/router.js';
export {
  DEFAULT_SAFETY_RULES,
  extendSafetyRules,
  judgeGoal,
  judgePlan,
  judgeStep,
  ProtectedRegionSchema,
  SafetyRulesSchema,
  screenIntent,
  type ProtectedRegion,
  type SafetyRules,
  type SafetyRulesInput,
  type SafetyVerdict,
} from './safety/rules.js';
export { HtnMethodDataSchema, loadHtnMethods, type HtnMethodData, type HtnMethodsLoad } from './htn/data.js';
export { createHtnPlanner, type HtnMethod, type HtnOperator, type HtnPlanner, type HtnPlannerOptions, type HtnTask } from './htn/htn.js';
export { createPlannerRepairHook, type RepairHookOptions } from './repair/hook.js';
export {
  CognitionConfigSchema,
  cognitionConfigHash,
  replySchemaOf,
  CognitionGateConfigSchema,
  CORRECTIVE_TEMPLATE_TOKEN,
  loadCognitionConfig,
  loadCognitionConfigFile,
  planOutputSchema,
  USER_TEMPLATE_TOKENS,
  type CognitionConfig,
  type CognitionConfigInput,
  type CognitionGateConfig,
  type ConfigError,
  type ConfigLoad,
} from './llm/config.js';
export {
  BELIEF_DELTA_TYPES,
  BODY_EDGES,
  COGNITION_EVENT_TYPES,
  COGNITION_LOOP_EXAMPLE,
  BeliefMessageSchema,
  CognitionInputSchema,
  CognitionLoopConfigSchema,
  createCognition,
  loadCognitionLoopConfig,
  type BeliefMessage,
  type BodyEdge,
  type Cognition,
  type CognitionEvent,
  type CognitionEventType,
  type CognitionExecutor,
  type CognitionInput,
  type CognitionLoopConfig,
  type CognitionLoopConfigInput,
  type CognitionOptions,
  type DecisionStamp,
  type RefusalStage,
  type SuggestionInput,
} from './cognition/index.js';
export { intentGateSignal } from './llm/intent-signal.js';
export { createCognitionGate, GateSignalSchema, type CognitionGate, type GateDecision, type GateSignal } from './llm/gate.js';
export {
  createLlmPlanner,
  DEFAULT_MAX_PROMPT_BYTES,
  type CompleteFn,
  type LlmEvent,
  type LlmPlannerOptions,
} from './llm/planner.js';
export { countWord, describeWorld, distanceWord, relativeWords } from './llm/describe.js';
export { LlmPlanReplySchema, type LlmPlanReply } from './llm/reply.js';
export { CompletionError, openAiCompatibleComplete, type OpenAiCompatibleOptions } from './llm/openai.js';
export {
  createNeedsPlanner,
  NeedsPerceptionError,
  NeedsThresholdsSchema,
  type Need,
  type NeedKind,
  type NeedsPlanner,
  type NeedsPlannerOptions,
  type NeedsThresholds,
  type ThoughtEvent,
} from './needs/needs.js';
export { sheltered, weaponHeld } from './needs/body.js';
export { threatsFromBelief, withBeliefThreats, type BeliefThreatView } from './needs/threats.js';
export { type ActionVariant, type GoapDomain } from './goap/actions.js';
export { checkProposal, createCollaborativePlanner, type CollaborativePlannerOptions } from './goap/collaborate.js';
export { GOAP_ROUTING_RULES, PREDICATE_GOAL } from './router/goap-routes.js';
export { defaultEvaluator, type PredicateEvaluator } from './goap/conditions.js';
export { createGoapPlanner, GoapLimitsSchema, goalPredicates, type GoapLimits, type GoapPlanner, type GoapPlannerOptions } from './goap/planner.js';
