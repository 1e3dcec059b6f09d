export { wrapRunners, type FileChange, type WrapResult, type WrapRunnersOptions } from './wrap.js';
export { formatReport, type Finding, type FindingCode, type FindingKind, type RunnerShape, type WrapReport } from './report.js';
export { unifiedDiff } from './diff.js';
