// @sinew/testkit startup: embedded server listen time and bot spawn time (spawned + chunks loaded),
// each beside a baseline measured in the same run (a bare `net` server listen; a bare TCP connect); bench/harness.ts.
import { once } from 'node:events';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { connectBot, startServer } from '@sinew/testkit';
import { DEFAULT_ROUNDS, record } from './harness.js';

async function bareListen(): Promise<{ ms: number; server: net.Server }> {
  const t0 = performance.now();
  const server = net.createServer((socket) => socket.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { ms: performance.now() - t0, server };
}

async function bareConnect(port: number): Promise<number> {
  const t0 = performance.now();
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const ms = performance.now() - t0;
  socket.destroy();
  return ms;
}

// the first round in a process also loads flying-squid, mineflayer and minecraft-data: reported apart
let t0 = performance.now();
const first = await startServer();
const coldListen = performance.now() - t0;
t0 = performance.now();
await connectBot(first);
const coldSpawn = performance.now() - t0;
await first.stop();
console.log(`cold, first in the process (module loading included): listen ${coldListen.toFixed(0)} ms, spawn ${coldSpawn.toFixed(0)} ms`);

const listen: number[] = [];
const listenBase: number[] = [];
const spawn: number[] = [];
const spawnBase: number[] = [];
const stop: number[] = [];
for (let i = 0; i < DEFAULT_ROUNDS; i++) {
  const base = await bareListen();
  listenBase.push(base.ms);
  spawnBase.push(await bareConnect((base.server.address() as net.AddressInfo).port));
  base.server.close();

  t0 = performance.now();
  const server = await startServer();
  listen.push(performance.now() - t0);
  t0 = performance.now();
  await connectBot(server);
  spawn.push(performance.now() - t0);
  t0 = performance.now();
  await server.stop();
  stop.push(performance.now() - t0);
}

record({ figure: 'testkit server listen (vs bare net listen)', unit: 'ms', values: listen, baselines: listenBase, digits: 1 });
record({ figure: 'testkit bot spawn, chunks loaded (vs bare TCP connect)', unit: 'ms', values: spawn, baselines: spawnBase, digits: 1 });
record({ figure: 'testkit server stop', unit: 'ms', values: stop, digits: 1 });
