import { expect, it } from 'vitest';
import { readmeExample, runReadmeExample } from '../../../test-support/readme.js';

// The README's example must run as written: extract the first ```ts block and execute it with tsx.
const { example } = readmeExample(new URL('../', import.meta.url));

it('runs the README example and prints what its comments say', async () => {
  expect(example).toContain('checkStep(registry');
  const output = await runReadmeExample(example, new URL('./', import.meta.url));
  const lines = output.split('\n');
  expect(lines[0]).toBe('unknown_verb → craft_planks');
  expect(lines[1]).toMatch(/^invalid args for craft_planks@1\.0\.0:$/);
  expect(output).toContain('→ at count');
  expect(output).toContain('precond_missing has_item:log');
  expect(output).toContain('ok via alias make_planks, args {"count":4}');
  expect(output).toContain('\neffects_unmet\n');
  expect(output).toContain('error   [unknown_verb] planner verb "chop_tree" has no capability');
  expect(output).toContain('verb gate FAILED: 2 planner verb(s), 1 registered verb(s), 1 error(s), 0 warning(s)');
}, 30_000);
