import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, damage, reset, setFood, setNaturalRegeneration, startServer, sync, type TestServer } from '../src/index.js';

/** Resolves once `check()` holds on a server tick, or with false after `ticks` server ticks (ticks, not wall time). */
function afterTicks(server: TestServer, ticks: number, check: () => boolean = () => false): Promise<boolean> {
  const serv = server.serv!;
  const end = serv.tickCount + ticks;
  return new Promise((resolve) => {
    const onTick = (_delta: number, tick: number) => {
      const held = check();
      if (!held && tick < end) return;
      serv.off('tick', onTick);
      resolve(held);
    };
    serv.on('tick', onTick);
  });
}

describe('natural regeneration (vanilla 1.20.4 food rules)', () => {
  let server: TestServer;
  let bot: Bot;
  const player = () => server.serv!.getPlayer('healer')!;

  beforeAll(async () => {
    server = await startServer({ naturalRegeneration: true });
    bot = await connectBot(server, { username: 'healer' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server); // food 20, saturation 5, health 20, regeneration back to what startServer asked
  });

  it('a hurt bot at full food spends its saturation, then two food points, healing 5½ in all, and stops at food 17', async () => {
    await damage(bot, 10);
    const seen: number[] = [];
    const onHealth = () => void seen.push(bot.health);
    bot.on('health', onHealth);
    // saturated heals every 10 ticks of min(saturation, 6)/6, each costing that much exhaustion (4 exhaustion = 1 saturation):
    // 5/6, 4/6, 3/6, 3/6, 2/6, then 1/6 four times (21/6); then 1 per 80 ticks at food ≥ 18, 6 exhaustion each (food 20 → 19 → 17)
    expect(await afterTicks(server, 600, () => player().food === 17)).toBe(true);
    await afterTicks(server, 85); // food 17 < 18: no more healing
    await sync(bot);
    bot.off('health', onHealth);
    expect(player().health).toBeCloseTo(10 + 21 / 6 + 2, 5);
    expect(player().foodSaturation).toBe(0);
    expect(bot.health).toBeCloseTo(15.5, 2);
    expect(bot.food).toBe(17);
    // the bot saw the health rise step by step, never fall
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect(seen.every((h, i) => i === 0 || h >= seen[i - 1]!)).toBe(true);
  });

  it('below food 18 a hurt bot does not heal; with regeneration off, not even at full food', async () => {
    await setFood(bot, 17);
    await damage(bot, 6);
    await afterTicks(server, 85);
    expect(player().health).toBe(14);
    setNaturalRegeneration(server, false);
    await setFood(bot, 20);
    await afterTicks(server, 85);
    expect(player().health).toBe(14);
    setNaturalRegeneration(server, true);
    expect(await afterTicks(server, 40, () => player().health > 14)).toBe(true);
  });

  it('an empty food bar starves the bot 1 health per 80 ticks, on normal difficulty down to 1 and no further', async () => {
    await setFood(bot, 0);
    await damage(bot, 17);
    expect(player().health).toBe(3);
    expect(await afterTicks(server, 200, () => player().health === 1)).toBe(true);
    await afterTicks(server, 85);
    await sync(bot);
    expect(player().health).toBe(1);
    expect(bot.health).toBe(1);
  });

  it('refuses a setting that is not a boolean', async () => {
    expect(() => setNaturalRegeneration(server, 'yes' as unknown as boolean)).toThrow(/setNaturalRegeneration.*expected a boolean/s);
    await expect(startServer({ naturalRegeneration: 1 as unknown as boolean })).rejects.toThrow(/naturalRegeneration/);
  });
});
