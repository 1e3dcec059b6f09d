import { expect, it } from 'vitest';
import { readmeExample, runReadmeExample } from '../../../test-support/readme.js';

// The README's example must run as written: the first ```ts block, executed with tsx; its output is the
// block printed under "It prints".
const { example, printed } = readmeExample(new URL('../', import.meta.url));

it('runs the README example and prints what the README says', async () => {
  expect(example).toContain('serveSinew(');
  const output = await runReadmeExample(example, new URL('./', import.meta.url));
  expect(output).toBe(printed);
}, 30_000);
