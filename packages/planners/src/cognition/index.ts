export {
  BELIEF_DELTA_TYPES,
  BODY_EDGES,
  CognitionLoopConfigSchema,
  loadCognitionLoopConfig,
  type BodyEdge,
  type CognitionLoopConfig,
  type CognitionLoopConfigInput,
} from './config.js';
export { COGNITION_EVENT_TYPES, type CognitionEvent, type CognitionEventType, type DecisionStamp, type RefusalStage } from './events.js';
export { BeliefMessageSchema, CognitionInputSchema, type BeliefMessage, type CognitionInput } from './inputs.js';
export { createCognition, type Cognition, type CognitionExecutor, type CognitionOptions, type SuggestionInput } from './loop.js';
export { COGNITION_LOOP_EXAMPLE } from './example.js';
