import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { connectBot, fill, give, GROUND_Y, reset, setGameMode, spawnMob, startServer, teleport, waitUntil, type TestServer } from '../src/index.js';
import { watchHurts } from './helpers.js';

describe('mobs with a chase-and-melee AI', () => {
  let server: TestServer;
  let bot: Bot;
  let other: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'target' });
    other = await connectBot(server, { username: 'bystander' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
    // reset puts every player at the spawn; the bystander waits 60 blocks away, out of the target's mobs' range.
    await teleport(other, { x: 0.5, y: GROUND_Y + 1, z: 60.5 });
  });

  it('a zombie spawned 6 blocks away is seen as a zombie, walks to the bot and lowers its health', async () => {
    const zombie = await spawnMob(server, 'zombie', { x: 6.5, y: GROUND_Y + 1, z: 0.5 });
    const seen = bot.entities[zombie.id];
    expect(seen?.name).toBe('zombie');
    expect(seen?.type).toBe('hostile');
    const startDistance = seen!.position.distanceTo(bot.entity.position);
    expect(startDistance).toBeGreaterThan(5);
    expect(await waitUntil(server, () => bot.health < 20, 160)).toBe(true);
    expect(bot.entities[zombie.id]!.position.distanceTo(bot.entity.position)).toBeLessThan(3);
    expect(bot.health).toBeLessThanOrEqual(17);
  });

  it('zombies spawned on one spot push each other apart (vanilla entity collision): a pack never walks as one stack', async () => {
    const at = { x: -7.5, y: GROUND_Y + 1, z: 0.5 };
    const pack = [await spawnMob(server, 'zombie', at, { hostile: false })];
    for (let n = 1; n < 3; n += 1) pack.push(await spawnMob(server, 'zombie', at, { hostile: false }));
    const spots = () => pack.map((z) => bot.entities[z.id]?.position);
    const apart = () => {
      const seen = spots();
      if (seen.some((p) => p === undefined)) return false;
      return seen.every((p, i) => seen.every((q, j) => i === j || Math.hypot(p!.x - q!.x, p!.z - q!.z) >= 0.5));
    };
    expect(await waitUntil(server, apart, 160)).toBe(true);
    // apart, they stay near where they were put: a push, not a scatter
    for (const p of spots()) expect(Math.hypot(p!.x - at.x, p!.z - at.z)).toBeLessThan(1);
  });

  it('hits are spaced by the cooldown: about one every 20 server ticks, never faster', async () => {
    const watch = watchHurts(server, ['target']);
    try {
      await spawnMob(server, 'zombie', { x: 1.5, y: GROUND_Y + 1, z: 0.5 }, { attackDamage: 1 });
      expect(await watch.until(() => watch.hurts('target').length >= 4, 400)).toBe(true);
      const hurts = watch.hurts('target');
      const gaps = hurts.slice(1).map((t, i) => t - hurts[i]!);
      // The cooldown is 20 ticks; one tick of slack for when the server sees the damage.
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(19);
      // And it keeps hitting (knockback costs a few ticks of walking back), not just once.
      expect(Math.min(...gaps)).toBeLessThanOrEqual(40);
    } finally {
      watch.stop();
    }
  });

  it('ignores a survival player 30 blocks away while a zombie 2 blocks from another survival player hurts it', async () => {
    // The bystander is 60 blocks from the target: each zombie has exactly one player in its follow range.
    const watch = watchHurts(server, ['target', 'bystander']);
    try {
      const far = await spawnMob(server, 'zombie', { x: 30.5, y: GROUND_Y + 1, z: 0.5 });
      await spawnMob(server, 'zombie', { x: 2.5, y: GROUND_Y + 1, z: 60.5 });
      // Positive control: the same AI in the same ticks does hurt a player in range.
      expect(await watch.until(() => watch.hurts('bystander').length > 0, 200)).toBe(true);
      await watch.until(() => false, 40);
      expect(watch.hurts('target')).toEqual([]);
      expect(server.serv!.getPlayer('target')!.health).toBe(20);
      expect(far.entity!.position.distanceTo(server.serv!.getPlayer('target')!.position)).toBeGreaterThan(29);
    } finally {
      watch.stop();
    }
  });

  it('a zombie in a closed tunnel under the bot never sees it and stays; with the bot in the tunnel it comes (line of sight, as vanilla)', async () => {
    // a tunnel two high just above the bedrock, under the grass, from under the bot to 12 blocks east
    const floor = GROUND_Y - 2;
    await fill(server, { x: 0, y: floor, z: 0 }, { x: 12, y: floor + 1, z: 0 }, 'air');
    const watch = watchHurts(server, ['target']);
    try {
      const zombie = await spawnMob(server, 'zombie', { x: 10.5, y: floor, z: 0.5 });
      await watch.until(() => false, 80);
      // within its 16-block follow range the whole time, the grass between: it never took the bot as its target
      expect(zombie.entity!.position.x).toBe(10.5);
      expect(watch.hurts('target')).toEqual([]);
      // the control: the same zombie once the bot stands at the tunnel's west end, in view
      await teleport(bot, { x: 0.5, y: floor, z: 0.5 });
      expect(await watch.until(() => zombie.entity!.position.x < 5, 200)).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('ignores a creative player 2 blocks away while hurting a survival player 2 blocks away', async () => {
    await setGameMode(bot, 'creative');
    const watch = watchHurts(server, ['target', 'bystander']);
    try {
      await spawnMob(server, 'zombie', { x: 2.5, y: GROUND_Y + 1, z: 0.5 });
      await spawnMob(server, 'zombie', { x: 2.5, y: GROUND_Y + 1, z: 60.5 });
      expect(await watch.until(() => watch.hurts('bystander').length > 0, 200)).toBe(true);
      await watch.until(() => false, 40);
      expect(watch.hurts('target')).toEqual([]);
      expect(server.serv!.getPlayer('target')!.health).toBe(20);
    } finally {
      watch.stop();
    }
  });

  it('hits deal the held weapon damage: a stone sword kills a chicken (4 health) at once, a fist needs four hits', async () => {
    const first = await spawnMob(server, 'chicken', { x: 2.5, y: GROUND_Y + 1, z: 0.5 });
    const second = await spawnMob(server, 'chicken', { x: 0.5, y: GROUND_Y + 1, z: 2.5 });
    const hitsToKill = async (id: number): Promise<number> => {
      let hits = 0;
      while (bot.entities[id] && server.serv!.entities[id] && hits < 10) {
        bot.attack(bot.entities[id]!);
        hits++;
        await bot.waitForTicks(2);
      }
      return hits;
    };
    expect(await hitsToKill(second.id)).toBe(4);
    await give(bot, 'stone_sword', 1);
    await bot.equip(bot.registry.itemsByName.stone_sword!.id, 'hand');
    expect(await hitsToKill(first.id)).toBe(1);
  });

  it("a critical hit (falling past the top of a jump, not sprinting) deals 1.5 times the weapon's damage: an iron sword takes 9 of a zombie's 20, 6 on the ground", async () => {
    const zombie = await spawnMob(server, 'zombie', { x: 2.5, y: GROUND_Y + 1, z: 0.5 }, { hostile: false });
    const health = () => server.serv!.entities[zombie.id]?.health;
    await give(bot, 'iron_sword', 1);
    await bot.equip(bot.registry.itemsByName.iron_sword!.id, 'hand');
    expect(await waitUntil(server, () => bot.entities[zombie.id] !== undefined && bot.entity.onGround, 40)).toBe(true);
    bot.attack(bot.entities[zombie.id]!);
    expect(await waitUntil(server, () => health() === 14, 20)).toBe(true);
    // up the jump (rising: no critical), then past its top
    bot.setControlState('jump', true);
    await bot.waitForTicks(2);
    bot.setControlState('jump', false);
    bot.attack(bot.entities[zombie.id]!);
    expect(await waitUntil(server, () => health() === 8, 20)).toBe(true);
    // past the top: the client's velocity turns down a tick before the position it sends does, and a hit goes out
    // before that tick's position: one tick more, so the server has seen the body lower than the tick before
    for (let t = 0; t < 20 && !(bot.entity.velocity.y < -0.1 && !bot.entity.onGround); t += 1) await bot.waitForTicks(1);
    await bot.waitForTicks(1);
    expect(bot.entity.onGround).toBe(false);
    bot.attack(bot.entities[zombie.id]!);
    expect(await waitUntil(server, () => health() === undefined || health()! <= 0, 20)).toBe(true);
  });

  it('a mob killed by the bot disappears, and reset removes mobs', async () => {
    const cow = await spawnMob(server, 'cow', { x: 2.5, y: GROUND_Y + 1, z: 0.5 });
    expect(bot.entities[cow.id]?.name).toBe('cow');
    for (let i = 0; i < 25 && bot.entities[cow.id]; i++) {
      bot.attack(bot.entities[cow.id]!);
      await bot.waitForTicks(2);
    }
    expect(await waitUntil(server, () => bot.entities[cow.id] === undefined, 60)).toBe(true);
    const zombie = await spawnMob(server, 'zombie', { x: 10.5, y: GROUND_Y + 1, z: 0.5 });
    expect(bot.entities[zombie.id]).toBeDefined();
    await reset(server);
    expect(bot.entities[zombie.id]).toBeUndefined();
    await expect(spawnMob(server, 'dragonfly', { x: 0, y: 5, z: 0 })).rejects.toMatchObject({ code: 'unknown_mob' });
  });
});
