import { expect, it } from 'vitest';
import { readmeExample, runReadmeExample } from '../../../test-support/readme.js';

// The README's example must run as written: the first ```ts block, executed with tsx; its output is the
// block printed under "It prints".
const { example, printed } = readmeExample(new URL('../', import.meta.url));

// Appended after the example's last line: what would still keep the process alive once it is done
// (stdio pipes aside). A leftover timer or socket makes a user's bot script hang after bot.quit().
const LEFT_ALIVE = `
await new Promise((resolve) => setImmediate(resolve));
console.log('alive:', process.getActiveResourcesInfo().filter((kind) => kind !== 'PipeWrap' && kind !== 'TTYWrap'));
`;

it('runs the README example, prints what the README says, and leaves nothing keeping the process alive', async () => {
  expect(example).toContain('bot.quit()');
  const output = await runReadmeExample(example + LEFT_ALIVE, new URL('./', import.meta.url));
  expect(output).toBe(`${printed}alive: []\n`);
}, 60_000);
