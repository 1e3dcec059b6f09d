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

describe('a fleet of real mineflayer bots in worker processes, one SIGKILLed mid-dig', () => {
  it('digs every block once and leaves none (the observer bot sees it), completes every plan once, dispatches no step twice outside the effect→record window', async () => {
    const rows = await runBotKillTrials(mc, redis, { trials: 2, seed: 30, workers: 5, plansPerTrial: 6 });
    console.table(rows);
    expect(rows.map((r) => [r.lost, r.blocksDugTwice, r.blocksLeft, r.doublesOutsideWindow])).toEqual([[0, 0, 0, 0], [0, 0, 0, 0]]);
    expect(rows.map((r) => r.kills)).toEqual([1, 1]);
  });
});
