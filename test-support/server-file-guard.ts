import { fileURLToPath } from 'node:url';
import { afterAll, expect, vi } from 'vitest';
import { testPackageOf } from './packages.js';

/**
 * Setup file of the `server` project, run before each of its files. The project holds every package's server files
 * and its files share workers (`isolate: false`, for the import time: issue 25), so:
 * - each file gets its own package's time limits (`test-support/packages.ts`) before its tests are collected;
 * - a server, socket or child process one file leaves open would go on running beside the next file's server and slow
 *   its ticks: this fails the file that does not close all it opened, naming what is left. Timers are not counted:
 *   libraries leave short races pending (mineflayer's 20 s waits) that hold nothing open.
 */
const { timeoutMs } = testPackageOf(fileURLToPath(new URL('..', import.meta.url)), expect.getState().testPath ?? '');
vi.setConfig({ testTimeout: timeoutMs, hookTimeout: timeoutMs });

const HELD_OPEN = new Set(['TCPServerWrap', 'TCPSocketWrap', 'ProcessWrap', 'UDPWrap']);

function heldOpen(): string[] {
  return process.getActiveResourcesInfo().filter((kind) => HELD_OPEN.has(kind));
}

afterAll(async () => {
  // Sockets and child processes finish closing a few loop turns after the file's own afterAll.
  for (let waited = 0; heldOpen().length > 0 && waited < 3_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  const left = heldOpen();
  if (left.length === 0) return;
  const counts = [...new Set(left)].map((kind) => `${left.filter((k) => k === kind).length} ${kind}`).join(', ');
  throw new Error(`this file left ${counts} open after its last test: the next file in this worker would run beside them; close every server, bot and child process it starts`);
});
