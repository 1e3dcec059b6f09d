import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each long file took in a full run (issue 25, 2026-11-27, a nearly quiet machine); used only on a fresh
 * clone, where vitest has no results cache yet. Without it the longest file could start last and end a minute after
 * all the others. demo.test.ts was split in two since (its keep-alive story in demo-keep-alive.test.ts).
 */
const KNOWN_SECONDS: Record<string, number> = {
  // Real-server files (`<pkg>:server`).
  'examples/need-wood/test/techtree.test.ts': 88,
  'examples/need-wood/test/autonomous.test.ts': 66,
  'packages/capabilities/test/mine.test.ts': 59,
  'packages/capabilities/test/drops.test.ts': 45,
  'packages/capabilities/test/explore.test.ts': 43,
  'packages/capabilities/test/gather.test.ts': 37,
  'packages/planners/test/integration/need-wood.test.ts': 36,
  'examples/need-wood/test/survival.test.ts': 29,
  'packages/testkit/test/hazards.test.ts': 28,
  'packages/capabilities/test/recovery.test.ts': 28,
  'examples/need-wood/test/demo.test.ts': 27,
  'examples/need-wood/test/demo-keep-alive.test.ts': 26,
  'packages/server/test/viewer.browser.test.ts': 26,
  'packages/planners/test/integration/armed-sheltered.test.ts': 25,
  'packages/testkit/test/fidelity.test.ts': 25,
  'examples/need-wood/test/goal.test.ts': 22,
  'packages/capabilities/test/smelting.test.ts': 22,
  'packages/server/test/view3d.browser.test.ts': 22,
  'packages/capabilities/test/navigation.test.ts': 22,
  'packages/capabilities/test/smelting-resume.test.ts': 21,
  'packages/capabilities/test/gather-explore.test.ts': 21,
  'packages/testkit/test/scenarios.test.ts': 20,
  'packages/planners/test/integration/goap.test.ts': 19,
  'packages/fleet/test/real-bots-kill.test.ts': 26,
  // In-process files (`<pkg>:process`, `<pkg>:heavy`, `<pkg>:unit`), which otherwise start behind the short ones.
  'codemods/test/cli.test.ts': 26,
  'packages/planners/test/htn-memory-orderings.test.ts': 25,
  'packages/executor-contracts/test/cli.test.ts': 17,
  'packages/fleet/test/kill.test.ts': 15,
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
