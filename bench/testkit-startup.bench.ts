// @sinew/testkit startup: embedded server listen time and bot spawn time (spawned + chunks loaded),
// each beside a baseline measured in the same run (a bare `net` server listen; a bare TCP connect).
import { once } from 'node:events';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { connectBot, startServer } from '@sinew/testkit';

const RUNS = 5;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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

const listen: number[] = [];
const listenBase: number[] = [];
const spawn: number[] = [];
const spawnBase: number[] = [];
const stop: number[] = [];

// the first round in a process also loads flying-squid, mineflayer and minecraft-data: reported apart
let cold: { listen: number; spawn: number };
{
  let t0 = performance.now();
  const server = await startServer();
  const listenMs = performance.now() - t0;
  t0 = performance.now();
  await connectBot(server);
  cold = { listen: listenMs, spawn: performance.now() - t0 };
  await server.stop();
}

for (let i = 0; i < RUNS; i++) {
  const base = await bareListen();
  listenBase.push(base.ms);
  spawnBase.push(await bareConnect((base.server.address() as net.AddressInfo).port));
  base.server.close();

  let t0 = performance.now();
  const server = await startServer();
  listen.push(performance.now() - t0);
  t0 = performance.now();
  await connectBot(server);
  spawn.push(performance.now() - t0);
  t0 = performance.now();
  await server.stop();
  stop.push(performance.now() - t0);
}

const row = (name: string, xs: number[], base: number[]): void => {
  const m = median(xs);
  const b = median(base);
  console.log(`${name.padEnd(28)} median ${m.toFixed(1).padStart(7)} ms   baseline ${b.toFixed(2).padStart(6)} ms   ratio ${(m / b).toFixed(0)}x`);
};
console.log(`runs: ${RUNS} (after one warm-up)`);
row('server listen (startServer)', listen, listenBase);
row('bot spawn (connectBot)', spawn, spawnBase);
console.log(`${'server stop'.padEnd(28)} median ${median(stop).toFixed(1).padStart(7)} ms`);
console.log(`cold, first in the process (module loading included): listen ${cold.listen.toFixed(0)} ms, spawn ${cold.spawn.toFixed(0)} ms`);
