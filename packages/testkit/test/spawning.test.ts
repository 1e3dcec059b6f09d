import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, reset, setHostileSpawning, setTime, startServer, type TestServer } from '../src/index.js';
import { watchHurts } from './helpers.js';

const hostiles = (bot: Bot) => Object.values(bot.entities).filter((e) => e.type === 'hostile');

describe('night-time hostile spawning', () => {
  let server: TestServer;
  let bot: Bot;
  /** Where each hostile was first seen, as its distance from the bot then. */
  const firstSeen = new Map<number, number>();

  beforeAll(async () => {
    server = await startServer({ hostileSpawning: { cap: 3, intervalTicks: 5, minDistance: 8, maxDistance: 12 } });
    bot = await connectBot(server, { username: 'camper' });
    bot.on('entitySpawn', (e) => {
      if (e.type === 'hostile') firstSeen.set(e.id, e.position.distanceTo(bot.entity.position));
    });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
    firstSeen.clear();
  });

  it('spawns nothing by day; at night zombies and skeletons appear 8-12 blocks away, never more than the cap, and attack', async () => {
    const watch = watchHurts(server, ['camper']);
    try {
      // Positive control for the night: same server, same spawner, by day.
      await setTime(server, 6_000, { daylightCycle: false });
      expect(bot.time.timeOfDay).toBe(6_000);
      await watch.until(() => false, 40);
      expect(hostiles(bot)).toEqual([]);

      await setTime(server, 13_000, { daylightCycle: false });
      expect(bot.time.timeOfDay).toBe(13_000);
      expect(await watch.until(() => hostiles(bot).length >= 3, 100)).toBe(true);
      // The cap holds while the spawner keeps trying every 5 ticks.
      await watch.until(() => false, 30);
      expect(hostiles(bot).length).toBe(3);
      for (const e of hostiles(bot)) expect(['zombie', 'skeleton']).toContain(e.name);
      for (const distance of firstSeen.values()) {
        expect(distance).toBeGreaterThanOrEqual(8 - 1);
        expect(distance).toBeLessThanOrEqual(12 + 1.5);
      }
      // They use the testkit's mob AI: they come and hit.
      expect(await watch.until(() => watch.drops('camper').length > 0, 200)).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('turned off at runtime, nothing more spawns at night; turned on again, it does', async () => {
    setHostileSpawning(server, false);
    const watch = watchHurts(server, ['camper']);
    try {
      await setTime(server, 18_000, { daylightCycle: false });
      await watch.until(() => false, 40);
      expect(hostiles(bot)).toEqual([]);
      setHostileSpawning(server, { cap: 1, intervalTicks: 2, kinds: ['zombie'] });
      expect(await watch.until(() => hostiles(bot).length === 1, 60)).toBe(true);
      expect(hostiles(bot)[0]!.name).toBe('zombie');
    } finally {
      watch.stop();
    }
  });

  it('bad spawning options are a ConfigError (invalid_config) naming the field', async () => {
    expect(() => setHostileSpawning(server, { minDistance: 10, maxDistance: 5 })).toThrow(/invalid config.*maxDistance/s);
    expect(() => setHostileSpawning(server, { radius: 5 } as never)).toThrow(/invalid config.*radius/s);
    await expect(startServer({ hostileSpawning: { cap: 0 } })).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(setTime(server, -1)).rejects.toMatchObject({ code: 'invalid_config' });
  });
});
