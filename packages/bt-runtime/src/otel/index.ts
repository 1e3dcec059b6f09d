export { createOtelProvenance, type OtelProvenanceOptions } from './otel.js';
