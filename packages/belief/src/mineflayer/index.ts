export { attachBelief, type BeliefAdapter, type BeliefAdapterOptions, type Scheduler, type TickEvent } from './adapter.js';
export { evidenceFromBot, type BotLike, type EntityLike, type EvidenceOptions } from './evidence.js';
export { createBeliefMetrics, type BeliefMetrics } from './metrics.js';
export { attachModes, bodySignals, type AttachedModes, type AttachModesOptions, type ReachCounts } from './modes.js';
