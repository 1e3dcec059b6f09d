import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('README example', () => {
  it('runs and shows need → route → plan → repair', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'packages/planners/examples/plan-need-wood.ts'], { cwd: repoRoot, encoding: 'utf8' });
    expect(output).toContain('thought: no pickaxe and no wood → need wood');
    expect(output).toContain('router route: htn');
    expect(output).toContain('s5 craft_item {"item":"wooden_pickaxe","count":1}');
    expect(output).toContain('repair: craft_item({"item":"stick","count":2})');
  });

  it('the README points at the example that runs', () => {
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain('node --import tsx packages/planners/examples/plan-need-wood.ts');
  });
});
