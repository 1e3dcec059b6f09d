export { otelProvenance, type OtelProvenanceOptions } from './otel.js';
