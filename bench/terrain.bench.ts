// Generated terrain's cost: chunk generation time of the terrain generator beside flying-squid's superflat
// generator (raw, and as the testkit serves it: one column cloned), and a bot's spawn (chunks loaded) on a
// terrain server beside a superflat one; bench/harness.ts.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { connectBot, startServer, type TestServer } from '@sinew/testkit';
import { compare } from './harness.js';

type Generate = (x: number, z: number) => unknown;
const generatorOf = (server: TestServer): Generate => {
  const world = server.serv!.overworld as unknown as { chunkGenerator: Generate };
  return (x, z) => world.chunkGenerator(x, z);
};

const CHUNKS_PER_ROUND = 16;
const SEED = 8675309;
const terrain = await startServer({ world: { generator: 'terrain', seed: SEED } });
const flat = await startServer();
const superflat = (createRequire(import.meta.url)('flying-squid/src/lib/worldGenerations/superflat.js') as (o: object) => Generate)({
  registry: flat.serv!.registry,
  seed: SEED,
});

/** Per-chunk milliseconds over CHUNKS_PER_ROUND chunks that no round has asked for before (a spiral walk outwards). */
function perChunk(generate: Generate, round: number): number {
  const t0 = performance.now();
  for (let i = 0; i < CHUNKS_PER_ROUND; i++) generate(40 + round * 3 + (i % 4), -17 + round * 5 + Math.floor(i / 4));
  return (performance.now() - t0) / CHUNKS_PER_ROUND;
}

await compare({
  figure: 'terrain chunk generation (vs flying-squid superflat)',
  unit: 'ms/chunk',
  run: (round) => perChunk(generatorOf(terrain), round + 1),
  baseline: (round) => perChunk(superflat, round + 1),
  digits: 2,
});
await compare({
  figure: 'terrain chunk generation (vs testkit superflat, cloned columns)',
  unit: 'ms/chunk',
  run: (round) => perChunk(generatorOf(terrain), round + 100),
  baseline: (round) => perChunk(generatorOf(flat), round + 100),
  digits: 2,
});
await terrain.stop();
await flat.stop();

async function spawnMs(options: Parameters<typeof startServer>[0]): Promise<number> {
  const server = await startServer(options);
  const t0 = performance.now();
  await connectBot(server);
  const ms = performance.now() - t0;
  await server.stop();
  return ms;
}
await compare({
  figure: 'bot spawn, chunks loaded: terrain world (vs superflat)',
  unit: 'ms',
  run: (round) => spawnMs({ world: { generator: 'terrain', seed: SEED + round } }),
  baseline: () => spawnMs({}),
  rounds: 3,
  digits: 0,
});
