import { unitProjectOf } from './vitest-unit.js';

// Left out here, kept in `npm test`: exports.test.ts loads every entry point of every package (9 s) to check that
// no name has two homes (the public surface, not behaviour); checkstep.property.test.ts runs 10,000 fast-check
// inputs (over 30 s instrumented); cli-in-process.test.ts loads registry modules through the CLI and waits out
// its 200 ms-to-15 s hang guards (18 s). Each covers most of the package, so Stryker would rerun it for nearly
// every mutant: with them the run took about 2 s a mutant on this machine.
export default unitProjectOf('executor-contracts', ['test/exports.test.ts', 'test/checkstep.property.test.ts', 'test/cli-in-process.test.ts']);
