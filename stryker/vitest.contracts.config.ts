import { unitProjectOf } from './vitest-unit.js';

// exports.test.ts loads every entry point of every package (9 s) to check that no name has two homes: it tests
// the public surface, not behaviour, and would be rerun in full for each static mutant. checkstep.property.test.ts
// runs 10,000 fast-check inputs through checkStep (over 30 s instrumented) and would be rerun for each mutant of
// checks.ts that the example tests do not kill first. Both stay in `npm test`.
export default unitProjectOf('executor-contracts', ['test/exports.test.ts', 'test/checkstep.property.test.ts']);
