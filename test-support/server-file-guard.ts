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

const HELD_OPEN = ['TCPServerWrap', 'TCPSocketWrap', 'ProcessWrap', 'UDPWrap'];

/** How many of each kind are open now. */
function heldOpen(): Map<string, number> {
  const counts = new Map(HELD_OPEN.map((kind) => [kind, 0]));
  for (const kind of process.getActiveResourcesInfo()) if (counts.has(kind)) counts.set(kind, counts.get(kind)! + 1);
  return counts;
}

// What was open before this file (what an earlier file of this worker left, already reported there): only what this
// file adds fails it, so one leak fails one file, not every file after it in the worker.
const before = heldOpen();

/** What this file opened and has not closed, as "2 TCPSocketWrap, 1 TCPServerWrap" (empty when nothing). */
function addedSinceStart(): string {
  return [...heldOpen()]
    .map(([kind, count]) => [kind, count - before.get(kind)!] as const)
    .filter(([, added]) => added > 0)
    .map(([kind, added]) => `${added} ${kind}`)
    .join(', ');
}

afterAll(async () => {
  // Sockets and child processes finish closing a few loop turns after the file's own afterAll.
  for (let waited = 0; addedSinceStart() !== '' && waited < 3_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  const left = addedSinceStart();
  if (left === '') return;
  throw new Error(`this file left ${left} open after its last test: the next file in this worker would run beside them; close every server, bot and child process it starts`);
});
