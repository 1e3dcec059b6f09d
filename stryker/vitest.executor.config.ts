import { unitProjectOf } from './vitest-unit.js';

// memory.test.ts measures the heap after `global.gc`, which Stryker's thread pool does not expose (the test
// would only check that it is missing); fuzz.test.ts runs 10 s of seeded fault plans and covers every executor
// line, so it would be rerun for each surviving mutant. Both stay in `npm test`.
export default unitProjectOf('bt-runtime', ['test/memory.test.ts', 'test/fuzz.test.ts']);
