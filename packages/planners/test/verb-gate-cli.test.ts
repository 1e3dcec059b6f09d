import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const gate = (planner: string) =>
  spawnSync(
    process.execPath,
    ['--import', 'tsx', 'packages/executor-contracts/src/cli.ts', 'check', '--registry', 'packages/capabilities/src/registry.ts', '--export', 'standardRegistry', '--planner', planner],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
  );

describe('sinew-verbs check against the standard registry', () => {
  it('passes with the router’s planners (gate/planners.ts)', () => {
    const run = gate('packages/planners/gate/planners.ts');
    expect(run.stdout + run.stderr).toContain('verb gate passed');
    expect(run.status).toBe(0);
  });

  it('fails on a planner verb no capability provides', () => {
    const run = gate('packages/planners/test/fixtures/divergent-planner.ts');
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain('fell_tree');
  });
});
