import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKillTrials, runPauseTrial } from './kill-harness.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let server: RedisServer;
beforeAll(async () => void (server = await startRedisServer()));
afterAll(async () => await server.dispose());

describe('a fleet of worker processes SIGKILLed mid-step', () => {
  it('completes every plan once, loses none, and never lets a step take effect twice (a takeover checks the world first)', async () => {
    const rows = await runKillTrials(server, { trials: 3, seed: 7, workers: 3, plansPerTrial: 6, killsPerTrial: 2, redisRestartTrials: [1] });
    console.table(rows);
    expect(rows.map((r) => r.lost + r.missingEffects + r.doubleEffects + r.acknowledgedLost)).toEqual([0, 0, 0]);
    expect(rows.reduce((n, r) => n + r.kills, 0)).toBe(6);
    expect(rows.reduce((n, r) => n + r.midStepKills, 0)).toBeGreaterThan(0);
  });

  it('refuses the late writes of a worker paused past its lease while another finishes its plan', async () => {
    const result = await runPauseTrial(server, 11);
    expect(result).toMatchObject({ planEnds: 1, fencedByPaused: 1 });
    expect(result.stepRecords).toBe(result.steps);
  });
});
