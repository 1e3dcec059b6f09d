import { expect, it } from 'vitest';
import { readmeExample, runReadmeExample } from '../../../test-support/readme.js';

// The README's example must run as written: extract the first ```ts block and execute it with tsx.
const { example } = readmeExample(new URL('../', import.meta.url));

it('runs the README example: snapshot, deltas, one reflex preemption, a matching cognition view', async () => {
  expect(example).toContain('createBeliefBus(');
  const output = await runReadmeExample(example, new URL('./', import.meta.url));
  const lines = output.trim().split('\n');
  expect(lines[0]).toBe('tick 1 seq 1 snapshot: 2 tracks');
  expect(output).toContain('preempt flee (reflex:flee:zombie)');
  expect(output).toMatch(/seq \d+ deltas: new_threat/);
  expect(output).toContain('cognition view matches: true');
  expect(output).toContain('state hash: 16 hex digits');
}, 30_000);
