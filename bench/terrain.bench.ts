// Generated terrain's cost: chunk generation time of the terrain generator beside flying-squid's superflat
// generator (raw, and as the testkit serves it: one column cloned), and a bot's spawn (chunks loaded) on a
// terrain server beside a superflat one, and the columns and heap a terrain server holds after a bot walked
// 1,000 blocks; bench/harness.ts.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { connectBot, setGameMode, startServer, teleport, type TestServer } from '@sinew/testkit';
import { compare, record } from './harness.js';

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

/**
 * The memory bound: a bot crosses 1,000 blocks of a generated world (creative, so the hops down from the sky do not
 * hurt) and the server then holds only the columns near it; the heap is read after a full collection.
 */
async function afterWalk(): Promise<{ columns: number; heapMb: number; generated: number }> {
  const server = await startServer({ world: { generator: 'terrain', seed: SEED } });
  const bot = await connectBot(server, { username: 'walker' });
  await setGameMode(bot, 'creative');
  const world = server.serv!.overworld as unknown as { columns: Record<string, unknown>; chunkGenerator: Generate };
  let generated = 0;
  const generate = world.chunkGenerator;
  world.chunkGenerator = (x, z) => (generated++, generate(x, z));
  for (let walked = 0; walked < 1_000; walked += 40) {
    await teleport(bot, server.spawn.offset(walked + 40, 120 - server.spawn.y, 0));
    await bot.waitForChunksToLoad();
    console.log(`   walked ${walked + 40} blocks: ${Object.keys(world.columns).length} columns held`);
  }
  const sweeps = server.serv!.tickCount + 220;
  while (server.serv!.tickCount < sweeps) await new Promise((resolve) => setTimeout(resolve, 100));
  (globalThis as { gc?: () => void }).gc?.();
  const result = { columns: Object.keys(world.columns).length, heapMb: process.memoryUsage().heapUsed / 2 ** 20, generated };
  await server.stop();
  return result;
}
const walk = await afterWalk();
record({ figure: 'terrain server after a bot walks 1,000 blocks: columns held', unit: 'columns', values: [walk.columns], digits: 0 });
record({ figure: 'terrain server after a bot walks 1,000 blocks: columns generated on the way', unit: 'columns', values: [walk.generated], digits: 0 });
record({ figure: 'terrain server after a bot walks 1,000 blocks: heap used (whole bench process)', unit: 'MB', values: [walk.heapMb], digits: 0 });
