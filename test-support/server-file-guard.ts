import { afterAll } from 'vitest';

/**
 * Setup file of every `<pkg>:server` project. Server files share their worker with the next file of their project
 * (`isolate: false`, for the import time: issue 25), so a server, socket or child process one file leaves open would
 * go on running beside the next file's server and slow its ticks. Each file must close all it opened: this fails the
 * file that does not, naming what is left. Timers are not counted: libraries leave short races pending (mineflayer's
 * 20 s waits) that hold nothing open.
 */
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
