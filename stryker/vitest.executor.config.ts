import { unitProjectOf } from './vitest-unit.js';

// memory.test.ts measures the heap after `global.gc`, which Stryker's thread pool does not expose (the test
// would only check that it is missing); fuzz.test.ts runs 10 s of seeded fault plans and covers every executor
// line, so it would be rerun for each surviving mutant; executor-unit-sizes.test.ts counts the lines of the source,
// which Stryker's instrumented copy makes longer. All three stay in `npm test`.
export default unitProjectOf('bt-runtime', ['test/memory.test.ts', 'test/fuzz.test.ts', 'test/executor-unit-sizes.test.ts']);
