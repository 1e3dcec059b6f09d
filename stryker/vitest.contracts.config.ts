import { unitProjectOf } from './vitest-unit.js';

// exports.test.ts loads every entry point of every package (9 s) to check that no name has two homes: it tests
// the public surface, not behaviour, and would be rerun in full for each static mutant. It stays in `npm test`.
export default unitProjectOf('executor-contracts', ['test/exports.test.ts']);
