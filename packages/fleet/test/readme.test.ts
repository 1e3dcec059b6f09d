import { expect, it } from 'vitest';
import { readmeExample, runReadmeExample } from '../../../test-support/readme.js';
import { startRedisServer } from './redis-server.js';

// The README's example must run as written (first ```ts block, with tsx), against a real redis-server.
const { example, printed } = readmeExample(new URL('../', import.meta.url));

it('runs the README example: a bot joins the fleet, takes the submitted plan and records it', async () => {
  expect(example).toContain('createFleetWorker(');
  const server = await startRedisServer();
  process.env.REDIS_URL = `redis://127.0.0.1:${server.port}`;
  try {
    expect(await runReadmeExample(example, new URL('./', import.meta.url))).toBe(printed);
  } finally {
    delete process.env.REDIS_URL;
    await server.dispose();
  }
}, 30_000);
