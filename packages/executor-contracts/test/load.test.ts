import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tsconfigAliases } from '../src/gate/load.js';

describe('registry loading follows the nearest tsconfig paths (no build needed in a workspace)', () => {
  it('maps exact paths to absolute files, skipping a package tsconfig without paths and wildcard entries', () => {
    const root = mkdtempSync(join(tmpdir(), 'sinew-aliases-'));
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@me/core': ['packages/core/src/index.ts'], '@me/*': ['packages/*/src'] } } }),
    );
    mkdirSync(join(root, 'packages/app/src'), { recursive: true });
    writeFileSync(join(root, 'packages/app/tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json' }));
    expect(tsconfigAliases(join(root, 'packages/app/src'))).toEqual({ '@me/core': join(root, 'packages/core/src/index.ts') });
  });

  it("resolves this repo's packages to their sources", () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    expect(tsconfigAliases(here)['@sinew/capabilities']).toMatch(/packages\/capabilities\/src\/index\.ts$/);
  });

  it('a tsconfig with comments (not JSON) gives no aliases instead of throwing', () => {
    const root = mkdtempSync(join(tmpdir(), 'sinew-aliases-'));
    writeFileSync(join(root, 'tsconfig.json'), '{ // comment\n "compilerOptions": {} }');
    expect(tsconfigAliases(root)).toEqual({});
  });
});
