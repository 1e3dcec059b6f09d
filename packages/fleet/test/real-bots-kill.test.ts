import { startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBotKillTrials } from './bot-kill-harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let redis: RedisServer;
let mc: TestServer;
beforeAll(async () => void ([redis, mc] = await Promise.all([startRedisServer(), startServer()])));
afterAll(async () => {
  await mc.stop();
  await redis.dispose();
});

describe('a fleet of real mineflayer bots in worker processes, one SIGKILLed mid-step, redis-server restarted mid-run', () => {
  it('digs no block twice and crafts no item twice (as the server and an observer bot see it), ends every plan once, loses nothing acknowledged', async () => {
    const rows = await runBotKillTrials(mc, redis, { trials: 2, seed: 30, workers: 5, plansPerTrial: 3, craftsPerTrial: 2, redisRestartTrials: [1] });
    console.table(rows);
    const promises = (r: (typeof rows)[number]) => [r.lost, r.blocksDugTwice, r.blocksLeft, r.craftedTwice, r.acknowledgedLost];
    expect(rows.map(promises)).toEqual([
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0],
    ]);
    for (const row of rows) {
      // Every completed craft plan crafted once; a refused one may have crafted in the killed bot (never twice).
      expect(row.crafts).toBeGreaterThanOrEqual(row.craftsCompleted);
      expect(row.crafts).toBeLessThanOrEqual(row.craftPlans);
      // A step another process dispatched again is one whose takeover found its effect absent in the world.
      expect(row.redispatches).toBeLessThanOrEqual(row.rerunAbsent);
    }
    expect(rows.map((r) => [r.kills, r.redisRestarted])).toEqual([
      [1, false],
      [1, true],
    ]);
    // Five bot processes (each loads mineflayer and spawns) and two trials: longer than the project's 60 s on a loaded machine.
  }, 180_000);
});
