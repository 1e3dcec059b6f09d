export { serveSinew, type SinewServer, type SinewServerOptions } from './server.js';
export { createToken } from './auth.js';
export { ServerLimitsSchema, ServerOptionsError, type ServerLimits, type ServerLimitsInput } from './options.js';
export { EVENT_STREAM_VERSION, type EventEnvelope, type StreamClientStats } from './stream/hub.js';
export { EVENT_TYPES, type CognitionEventLike, type CognitionSource, type ReflexEventLike, type SinewEventType } from './stream/sources.js';
export { ExecuteBodySchema, PreemptBodySchema, SignalBodySchema, type SignalBody, type SignalRouter } from './control.js';
export type { BeliefSource } from './http/routes.js';
export type { FleetProducer } from './http/fleet.js';
export type { BotLike, BotSnapshot } from './status.js';
