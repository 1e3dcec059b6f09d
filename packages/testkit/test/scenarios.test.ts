import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import pathfinderPackage from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { applyScenario, connectBot, give, GROUND_Y, reset, setBlock, setFood, setTime, startServer, teleport, waitUntil, type TestServer } from '../src/index.js';
import { watchHurts } from './helpers.js';

const { pathfinder, Movements, goals } = pathfinderPackage;
const hostiles = (bot: Bot) => Object.values(bot.entities).filter((e) => e.type === 'hostile');
const onFire = (bot: Bot): boolean => (Number(bot.entity.metadata[0] ?? 0) & 0x01) !== 0;

/** Direction reversals along x: the sign of successive moves (≥ minStep blocks apart) flips. */
function reversalCounter(minStep = 0.3) {
  let anchor: number | null = null;
  let sign = 0;
  let reversals = 0;
  return {
    sample(x: number): void {
      if (anchor === null) anchor = x;
      if (Math.abs(x - anchor) < minStep) return;
      const next = Math.sign(x - anchor);
      if (sign !== 0 && next !== sign) reversals++;
      sign = next;
      anchor = x;
    },
    reversals: () => reversals,
  };
}

describe('scenario presets, each with a plain mineflayer bot', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'subject' });
    bot.loadPlugin(pathfinder);
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('an unknown name is an unknown_scenario error listing the known ones; bad options are a ConfigError naming the field', async () => {
    await expect(applyScenario(server, 'volcano' as never, {} as never)).rejects.toThrow(/unknown_scenario.*volcano.*known: no_crafting_table, hostile_swarm_at_nightfall, lava_pit, deep_water, flapping_corridor, kick_mid_step/s);
    await expect(applyScenario(server, 'lava_pit', { depth: 9 })).rejects.toThrow(/invalid config.*depth/s);
    await expect(applyScenario(server, 'deep_water', { colour: 'blue' } as never)).rejects.toThrow(/invalid config.*colour/s);
    await expect(applyScenario(server, 'kick_mid_step', { username: 'subject' })).rejects.toThrow(/invalid config.*afterMs/s);
  });

  it('no_crafting_table: the table near the spawn and the one in the inventory are gone; a tree stands 5 blocks away', async () => {
    await setBlock(server, { x: 2, y: GROUND_Y + 1, z: 2 }, 'crafting_table');
    await give(bot, 'crafting_table', 1);
    expect(bot.inventory.count(bot.registry.itemsByName.crafting_table!.id, null)).toBe(1);
    const world = await applyScenario(server, 'no_crafting_table');
    expect(world.removedTables).toBe(1);
    expect(bot.blockAt(new Vec3(2, GROUND_Y + 1, 2))!.name).toBe('air');
    expect(bot.findBlock({ matching: bot.registry.blocksByName.crafting_table!.id, maxDistance: 32 })).toBeNull();
    expect(bot.inventory.count(bot.registry.itemsByName.crafting_table!.id, null)).toBe(0);
    expect(world.trees).toHaveLength(1);
    expect(bot.blockAt(world.trees[0]!.logs[0]!)!.name).toBe('oak_log');
    expect(world.trees[0]!.logs[0]!.distanceTo(new Vec3(0, GROUND_Y + 1, 0))).toBe(5);
  });

  it('hostile_swarm_at_nightfall: night falls and hostiles gather up to the count', async () => {
    const watch = watchHurts(server, ['subject']);
    try {
      const swarm = await applyScenario(server, 'hostile_swarm_at_nightfall', { count: 3, intervalTicks: 4 });
      expect(swarm.spawning.cap).toBe(3);
      expect(bot.time.timeOfDay).toBeGreaterThanOrEqual(13_000);
      expect(await watch.until(() => hostiles(bot).length === 3, 100)).toBe(true);
      await watch.until(() => false, 20);
      expect(hostiles(bot).length).toBe(3);
    } finally {
      watch.stop();
    }
    // reset() turns the swarm's spawning off again (startServer did not ask for it).
    await reset(server);
    await setTime(server, 18_000);
    await bot.waitForTicks(30);
    expect(hostiles(bot)).toEqual([]);
  });

  it('lava_pit: at the bottom the bot burns and loses health; on the rim it does not; the water pool puts it out', async () => {
    const pit = await applyScenario(server, 'lava_pit');
    expect(bot.blockAt(pit.inside)!.name).toBe('lava');
    const watch = watchHurts(server, ['subject']);
    try {
      await teleport(bot, pit.rim);
      await watch.until(() => false, 25);
      expect(watch.drops('subject')).toEqual([]);
      await teleport(bot, pit.inside);
      expect(await watch.until(() => watch.drops('subject').length >= 1, 40)).toBe(true);
      expect(await waitUntil(server, () => onFire(bot), 40)).toBe(true);
      await teleport(bot, pit.water!.min.offset(1.5, 0, 1.5));
      expect(await waitUntil(server, () => !onFire(bot), 40)).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('deep_water: at the bottom the oxygen falls; on the shore it stays full', async () => {
    const pool = await applyScenario(server, 'deep_water');
    await teleport(bot, pool.shore);
    await bot.waitForTicks(20);
    expect(bot.oxygenLevel).toBe(20);
    await teleport(bot, pool.bottom);
    expect(await waitUntil(server, () => bot.oxygenLevel < 19, 80)).toBe(true);
  });

  it('flapping_corridor: the real pathfinder reverses again and again and never reaches the goal', async () => {
    const corridor = await applyScenario(server, 'flapping_corridor');
    await teleport(bot, corridor.start);
    const counter = reversalCounter();
    let replans = 0;
    const onReset = (): void => {
      replans++;
    };
    bot.on('path_reset', onReset);
    bot.pathfinder.setMovements(new Movements(bot));
    bot.pathfinder.setGoal(new goals.GoalBlock(corridor.goal.x, corridor.goal.y, corridor.goal.z));
    // Sampled on every physics tick (the bot moves only on those), within 600 of them (30 s of the bot's time): a
    // loaded machine stretches wall time, and 100 ms wall-clock samples over a 30 s wall budget saw 2 reversals.
    // The position is read on the tick the fourth reversal is counted: a poll a little later (50 ms of wall time at
    // load ~20) let the bot walk on and saw 4.15 blocks from the start.
    let ticks = 0;
    let at: Vec3 | undefined;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const onTick = (): void => {
      ticks++;
      counter.sample(bot.entity.position.x);
      if (at === undefined && (counter.reversals() >= 4 || ticks >= 600)) {
        at = bot.entity.position.clone();
        done();
      }
    };
    bot.on('physicsTick', onTick);
    try {
      await finished;
      expect(counter.reversals()).toBeGreaterThanOrEqual(4);
      expect(corridor.swings()).toBeGreaterThanOrEqual(4);
      expect(replans).toBeGreaterThanOrEqual(3);
      expect(at!.distanceTo(corridor.goal.offset(0.5, 0, 0.5))).toBeGreaterThan(2.5);
      expect(Math.abs(at!.x - corridor.start.x)).toBeLessThan(4);
    } finally {
      bot.pathfinder.setGoal(null);
      bot.off('path_reset', onReset);
      bot.off('physicsTick', onTick);
      corridor.stop();
    }
  });

  it('flapping_corridor with swings: 2: the gates stop after two swings and the same pathfinder reaches the goal (control)', async () => {
    const corridor = await applyScenario(server, 'flapping_corridor', { swings: 2 });
    await teleport(bot, corridor.start);
    bot.pathfinder.setMovements(new Movements(bot));
    // setGoal, not goto: goto resolves on the first empty partial path, before any walking.
    bot.pathfinder.setGoal(new goals.GoalBlock(corridor.goal.x, corridor.goal.y, corridor.goal.z));
    try {
      expect(await waitUntil(server, () => bot.entity.position.floored().equals(corridor.goal), 400)).toBe(true);
    } finally {
      bot.pathfinder.setGoal(null);
    }
    expect(corridor.swings()).toBe(2);
  });

  it('kick_mid_step: the bot is kicked while digging, not before', async () => {
    const armed = await applyScenario(server, 'kick_mid_step', { username: 'subject', on: 'dig', afterMs: 100 });
    const block = bot.blockAt(new Vec3(1, GROUND_Y, 0))!;
    // Positive control: moving and looking do not trigger a dig kick.
    await bot.lookAt(block.position.offset(0.5, 0.5, 0.5), true);
    await bot.waitForTicks(5);
    expect(bot.entity).toBeTruthy();
    const kicked = new Promise<string>((resolve) => bot.once('kicked', (reason) => resolve(JSON.stringify(reason))));
    const digging = bot.dig(block).catch(() => undefined);
    const record = await armed.kicked;
    expect(record).toMatchObject({ username: 'subject', trigger: 'dig' });
    expect(await kicked).toContain('kick_mid_step');
    // mineflayer finishes its dig timer client-side even after the kick; the server never saw the block broken.
    await digging;
    expect(await server.serv!.overworld.getBlockType(block.position)).toBe(bot.registry.blocksByName.grass_block!.id);
    await waitUntil(server, () => !server.serv!.getPlayer('subject'), 40);
    bot = await connectBot(server, { username: 'subject' });
    bot.loadPlugin(pathfinder);
  });

  it('kick_mid_step on: use kicks a bot as it starts eating, before the food lands', async () => {
    await give(bot, 'bread', 1);
    await setFood(bot, 10);
    const armed = await applyScenario(server, 'kick_mid_step', { username: 'subject', on: 'use' });
    await bot.equip(bot.registry.itemsByName.bread!.id, 'hand');
    const eating = bot.consume().catch(() => undefined);
    expect(await armed.kicked).toMatchObject({ trigger: 'use' });
    expect(bot.food).toBe(10);
    await eating;
    await waitUntil(server, () => !server.serv!.getPlayer('subject'), 40);
    bot = await connectBot(server, { username: 'subject' });
    bot.loadPlugin(pathfinder);
  });

  it('kick_mid_step afterMs alone kicks after the delay; cancel disarms it', async () => {
    const cancelled = await applyScenario(server, 'kick_mid_step', { username: 'subject', afterMs: 50 });
    cancelled.cancel();
    expect(await cancelled.kicked).toBeNull();
    await bot.waitForTicks(3);
    expect(server.serv!.getPlayer('subject')).toBeTruthy();
    const armed = await applyScenario(server, 'kick_mid_step', { username: 'subject', afterMs: 50 });
    expect(await armed.kicked).toMatchObject({ trigger: 'delay' });
    await waitUntil(server, () => !server.serv!.getPlayer('subject'), 40);
    bot = await connectBot(server, { username: 'subject' });
    bot.loadPlugin(pathfinder);
  });
});
