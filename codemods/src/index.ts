export { wrapRunners, capabilitiesPath, type FileChange, type WrapResult, type WrapRunnersOptions } from './wrap.js';
export { buildReport, formatReport, type Finding, type FindingCode, type FindingKind, type RunnerShape, type WrapReport } from './report.js';
export { deriveSchema, type DerivedSchema, type SchemaDerivation } from './schema.js';
export { unifiedDiff } from './diff.js';
export { toSnakeCase, toCamelCase } from './naming.js';
