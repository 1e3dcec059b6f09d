import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each long file took in a full run (issue 25); used only on a fresh clone, where vitest has no
 * results cache yet. Without it the longest file could start last and end a minute after all the others.
 */
const KNOWN_SECONDS: Record<string, number> = {
  'examples/need-wood/test/techtree.test.ts': 90,
  'examples/need-wood/test/survival.test.ts': 38,
  'examples/need-wood/test/demo.test.ts': 35,
  'packages/planners/test/integration/need-wood.test.ts': 29,
  'codemods/test/cli.test.ts': 51,
  'packages/executor-contracts/test/cli.test.ts': 32,
  'packages/bt-runtime/test/memory.test.ts': 26,
  'packages/planners/test/verb-gate-cli.test.ts': 20,
  // The longest in-process files (`test:fast`), which otherwise start behind the short ones on a fresh clone.
  'packages/planners/test/htn-memory-orderings.test.ts': 25,
  'codemods/test/edge-cases.test.ts': 15,
  'packages/executor-contracts/test/checkstep.property.test.ts': 15,
  'codemods/test/real-shapes.test.ts': 13,
  'codemods/test/idempotency.test.ts': 12,
};

/** A file neither cached nor known: after the long ones, before the many short ones a warm cache knows. */
const UNKNOWN_SECONDS = 10;

/**
 * Runs each group (`sequence.groupOrder`) longest file first, across projects: vitest's own order runs
 * projects by name, so a slow file of a project named late would start when every worker but one is idle.
 * The files of a non-isolated project (`<pkg>:unit`) stay together, as one block as long as its longest
 * file: vitest hands a worker on to the next file only when that file is of the same project, so a project
 * interleaved with others would start a fresh worker (and load its module graph again) for nearly every file.
 * A file's length is its duration in vitest's results cache, else KNOWN_SECONDS, else 10 s.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const estimate = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached?.duration ?? (KNOWN_SECONDS[path] ?? UNKNOWN_SECONDS) * 1_000;
    };
    const order = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder;
    const block = (spec: TestSpecification): string => (spec.project.config.isolate ? spec.moduleId : spec.project.name);
    const blockLength = new Map<string, number>();
    for (const spec of files) blockLength.set(block(spec), Math.max(blockLength.get(block(spec)) ?? 0, estimate(spec)));
    const length = (spec: TestSpecification): number => blockLength.get(block(spec))!;
    return Promise.resolve(
      [...files].sort(
        (a, b) => order(a) - order(b) || length(b) - length(a) || block(a).localeCompare(block(b)) || estimate(b) - estimate(a),
      ),
    );
  }
}
