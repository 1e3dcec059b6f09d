export { BeliefConfigSchema, type BeliefConfig, type BeliefConfigInput } from './config.js';
export { BeliefConfigError, type BeliefError, type BeliefErrorCode, type BeliefIssue } from './errors.js';
export {
  EvidenceBatchSchema,
  EvidenceItemSchema,
  type EvidenceBatch,
  type EvidenceItem,
} from './evidence.js';
export { createBeliefBus, type BeliefBus, type IngestResult } from './bus/bus.js';
export type { TrackView, Visibility } from './bus/track.js';
export type { HazardRegion, HazardSummary } from './bus/hazard.js';
export {
  DeltasMessageSchema,
  DeltaTypeSchema,
  SaliencyDeltaSchema,
  SnapshotMessageSchema,
  STREAM_VERSION,
  StreamMessageSchema,
  TrackSummarySchema,
  type DeltasMessage,
  type DeltaType,
  type SaliencyDelta,
  type SnapshotMessage,
  type StreamMessage,
  type TrackSummary,
} from './stream/schemas.js';
export {
  applyStream,
  consumerView,
  initialConsumerState,
  type ApplyOptions,
  type ApplyStatus,
  type ConsumerState,
} from './stream/consumer.js';
export {
  createReflex,
  ReflexConfigSchema,
  type Reflex,
  type ReflexConfig,
  type ReflexConfigInput,
  type ReflexDecision,
  type ReflexEvent,
  type ReflexOptions,
  type ReflexStatus,
  type ReflexThreat,
} from './reflex/reflex.js';
export {
  MODE_PROFILES,
  ModesConfigSchema,
  resolveModesConfig,
  type ModeProfile,
  type ModesConfig,
  type ModesConfigInput,
  type ModesOverrides,
} from './modes/config.js';
export {
  createModes,
  type BodySignals,
  type ModeEvent,
  type ModeName,
  type Modes,
  type ModesOptions,
  type ModesStatus,
  type ModeTier,
} from './modes/modes.js';
export { EMERGENCY_MODES, EMERGENCY_RESULTS, type EmergencyMode, type EmergencyResult } from './modes/recall.js';
