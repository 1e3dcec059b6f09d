import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/** scripts/examples.mjs (plain ESM, run by `node` too): extracts the `@example` blocks and type-checks them in one program. */
interface Example {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}
interface ExamplesModule {
  checkExamples(options?: { extra?: readonly Example[] }): { examples: number; diagnostics: { file: string; line: number; message: string }[]; ms: number };
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { checkExamples } = (await import(pathToFileURL(join(ROOT, 'scripts', 'examples.mjs')).href)) as ExamplesModule;

describe('doc comments: every @example compiles against the public entry points', () => {
  it('type-checks each block of every package (one program), and a broken one fails at its file and line', () => {
    // Two wrong examples ride along in the same program: a wrong argument type, and a name nobody exports.
    const file = join(ROOT, 'packages', 'executor-contracts', 'src', 'registry.ts');
    const broken = [
      { file, line: 500, code: 'const registry2 = new CapabilityRegistry();\nregistry2.resolve(42);' },
      { file, line: 600, code: 'createExecutr({ registry, body: bot });' },
    ];
    const result = checkExamples({ extra: broken });
    expect(result.examples).toBeGreaterThanOrEqual(27 + 2);
    expect(result.diagnostics).toEqual([
      { file: join('packages', 'executor-contracts', 'src', 'registry.ts'), line: 501, message: expect.stringContaining("'number' is not assignable") },
      { file: join('packages', 'executor-contracts', 'src', 'registry.ts'), line: 600, message: expect.stringContaining("Cannot find name 'createExecutr'") },
    ]);
  }, 180_000);
});
