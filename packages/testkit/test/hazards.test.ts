import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, fill, GROUND_Y, HAZARD_RULES, reset, setAir, setBlock, startServer, teleport, waitUntil, type TestServer } from '../src/index.js';
import { watchHurts } from './helpers.js';

/** The "on fire" bit of the shared flags (entity metadata 0) as the bot last received it. */
const onFire = (bot: Bot): boolean => ((Number(bot.entity.metadata[0] ?? 0) & 0x01) !== 0);
const gapsOf = (ticks: number[]): number[] => ticks.slice(1).map((t, i) => t - ticks[i]!);

describe('lava, fire and water hurt a plain mineflayer bot', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'diver' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('lava hurts 4 every 10 ticks and sets the bot on fire; burning goes on at 1 per 20 ticks outside; water puts it out', async () => {
    const watch = watchHurts(server, ['diver']);
    try {
      // Positive control: the same bot on the grass, same ticks, takes nothing and does not burn.
      await watch.until(() => false, 30);
      expect(watch.drops('diver')).toEqual([]);
      expect(onFire(bot)).toBe(false);

      await fill(server, { x: 4, y: GROUND_Y, z: -1 }, { x: 6, y: GROUND_Y, z: 1 }, 'lava');
      await fill(server, { x: -6, y: GROUND_Y - 1, z: -1 }, { x: -4, y: GROUND_Y, z: 1 }, 'water');
      await teleport(bot, { x: 5.5, y: GROUND_Y, z: 0.5 });
      expect(await watch.until(() => watch.drops('diver').length >= 2, 60)).toBe(true);
      await teleport(bot, { x: 0.5, y: GROUND_Y + 1, z: 0.5 });
      expect(bot.health).toBeLessThanOrEqual(12);
      const lava = watch.drops('diver');
      expect(lava.slice(0, 2).map((d) => d.amount)).toEqual([4, 4]);
      expect(lava[1]!.tick - lava[0]!.tick).toBeGreaterThanOrEqual(HAZARD_RULES.immunityTicks);
      expect(await waitUntil(server, () => onFire(bot), 40)).toBe(true);

      // Out of the lava: still burning, 1 per second.
      watch.clear();
      expect(await watch.until(() => watch.drops('diver').length >= 3, 100)).toBe(true);
      const burns = watch.drops('diver');
      expect(burns.map((d) => d.amount)).toEqual([1, 1, 1]);
      for (const gap of gapsOf(burns.map((d) => d.tick))) expect(gap).toBe(HAZARD_RULES.burnIntervalTicks);
      expect(onFire(bot)).toBe(true);

      await teleport(bot, { x: -4.5, y: GROUND_Y, z: 0.5 });
      expect(await waitUntil(server, () => !onFire(bot), 40)).toBe(true);
      watch.clear();
      await watch.until(() => false, 45);
      expect(watch.drops('diver')).toEqual([]);
      expect(bot.health).toBe(server.serv!.getPlayer('diver')!.health);
    } finally {
      watch.stop();
    }
  });

  it('a fire block hurts 1 per 10 ticks and lights the bot for 8 s (160 ticks) after it steps out', async () => {
    const watch = watchHurts(server, ['diver']);
    try {
      await setBlock(server, { x: 3, y: GROUND_Y + 1, z: 0 }, 'fire');
      await teleport(bot, { x: 3.5, y: GROUND_Y + 1, z: 0.5 });
      expect(await watch.until(() => watch.drops('diver').length >= 3, 60)).toBe(true);
      await teleport(bot, { x: 0.5, y: GROUND_Y + 1, z: 0.5 });
      const left = watch.now();
      const inFire = watch.drops('diver').slice(0, 3);
      expect(inFire.map((d) => d.amount)).toEqual([1, 1, 1]);
      for (const gap of gapsOf(inFire.map((d) => d.tick))) expect(gap).toBe(HAZARD_RULES.immunityTicks);
      expect(onFire(bot)).toBe(true);

      // The flag clears by itself once the 160 ticks have burnt down.
      expect(await watch.until(() => !onFire(bot), 220)).toBe(true);
      const burnt = watch.now() - left;
      expect(burnt).toBeGreaterThan(HAZARD_RULES.fireBlockFireTicks - 10);
      expect(burnt).toBeLessThanOrEqual(HAZARD_RULES.fireBlockFireTicks + 5);
    } finally {
      watch.stop();
    }
  });

  it('the air supply runs down with the head under water, drowns at 2 per 20 ticks, and refills on land', async () => {
    await fill(server, { x: 3, y: GROUND_Y - 3, z: -2 }, { x: 7, y: GROUND_Y, z: 2 }, 'water');
    // Positive control: feet in water, head in the air (a 1-deep pool at the edge) keeps the air full.
    await fill(server, { x: -3, y: GROUND_Y, z: 0 }, { x: -3, y: GROUND_Y, z: 0 }, 'water');
    await teleport(bot, { x: -2.5, y: GROUND_Y, z: 0.5 });
    await bot.waitForTicks(30);
    expect(bot.oxygenLevel).toBe(20);

    await teleport(bot, { x: 5.5, y: GROUND_Y - 3, z: 0.5 });
    expect(await waitUntil(server, () => bot.oxygenLevel < 20, 60)).toBe(true);
    const watch = watchHurts(server, ['diver']);
    try {
      expect(watch.drops('diver')).toEqual([]);
      await setAir(bot, 10);
      expect(await watch.until(() => watch.drops('diver').length >= 2, 100)).toBe(true);
      const drowning = watch.drops('diver').slice(0, 2);
      expect(drowning.map((d) => d.amount)).toEqual([HAZARD_RULES.drownDamage, HAZARD_RULES.drownDamage]);
      expect(drowning[1]!.tick - drowning[0]!.tick).toBe(20);
      expect(bot.oxygenLevel).toBe(0);
    } finally {
      watch.stop();
    }
    await teleport(bot, { x: 0.5, y: GROUND_Y + 1, z: 0.5 });
    expect(await waitUntil(server, () => bot.oxygenLevel === 20, 100)).toBe(true);
  });

  it('a 12-block fall into deep water costs nothing; the same fall onto the grass beside it does', async () => {
    await fill(server, { x: 3, y: GROUND_Y - 3, z: -2 }, { x: 7, y: GROUND_Y, z: 2 }, 'water');
    await teleport(bot, { x: 5.5, y: GROUND_Y + 12, z: 0.5 });
    expect(await waitUntil(server, () => bot.entity.position.y < GROUND_Y - 1, 100)).toBe(true);
    await bot.waitForTicks(10);
    expect(bot.health).toBe(20);
    // Positive control: the same height onto the grass.
    await teleport(bot, { x: 0.5, y: GROUND_Y + 12, z: 0.5 });
    expect(await waitUntil(server, () => bot.health < 20, 100)).toBe(true);
  });

  it('setAir rejects a value outside 0..300 with invalid_config', async () => {
    await expect(setAir(bot, 301)).rejects.toMatchObject({ code: 'invalid_config' });
  });
});
