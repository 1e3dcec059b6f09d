import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file took: the median of four full `npm test` runs on a fresh clone (issue 25), written by
 * `npm run test:timings -- <reports…> --durations test-support/durations.json`. Used only where vitest has no results
 * cache yet (a fresh clone, CI): without it the longest file could start last and end a minute after the others.
 */
const KNOWN_SECONDS = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

/** A file neither cached nor known (new since the table was written): among the middling ones. */
const UNKNOWN_SECONDS = 10;

/**
 * Runs each group (`sequence.groupOrder`) longest file first, across projects: vitest's own order runs
 * projects by name, so a slow file of a project named late would start when every worker but one is idle.
 * The files of a non-isolated project (`<pkg>:unit`, `server`) stay together, as one block as long as its longest
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
