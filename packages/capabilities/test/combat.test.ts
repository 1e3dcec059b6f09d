import { connectBot, fill, give, setGameMode, spawnMob, teleport } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { useWorld, waitUntil } from './world.js';

const world = useWorld();

const distanceTo = (id: number) => {
  const entity = world.bot.entities[id];
  return entity ? entity.position.distanceTo(world.bot.entity.position) : Number.POSITIVE_INFINITY;
};

describe('attack_entity', () => {
  it('hits the nearest zombie; acceptance sees it hurt', async () => {
    const { bot, server } = world;
    await give(bot, 'stone_sword', 1);
    // A passive zombie (no AI) so the fight is deterministic.
    const zombie = await spawnMob(server, 'zombie', server.spawn.offset(4, 0, 0), { hostile: false });
    await waitUntil(world.server, () => bot.entities[zombie.id] !== undefined, 100);
    const outcome = await world.step('attack_entity', { entity: 'zombie', hits: 2 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(outcome.observables?.hits).toBe(2);
  });

  it('kills a weak target; acceptance sees it die (dead in the snapshot after the server removed it)', async () => {
    const { bot, server } = world;
    const chicken = await spawnMob(server, 'chicken', server.spawn.offset(3, 0, 2));
    await waitUntil(world.server, () => bot.entities[chicken.id] !== undefined, 100);
    const outcome = await world.step('attack_entity', { entity: 'chicken' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    await waitUntil(world.server, () => bot.entities[chicken.id] === undefined, 100);
  });

  it('a target the server never hurts (a creative player) ends in effects_unmet within seconds, not at the deadline', async () => {
    const { bot, server } = world;
    const dummy = await connectBot(server, { username: 'dummy' });
    try {
      await setGameMode(dummy, 'creative');
      await teleport(dummy, server.spawn.offset(2, 0, 0));
      await waitUntil(world.server, () => bot.players.dummy?.entity !== undefined, 100);
      const started = Date.now();
      const outcome = await world.step('attack_entity', { entity: 'dummy' });
      expect(outcome.failure?.code).toBe('effects_unmet');
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      dummy.quit();
    }
  });

  it('a target walled in out of reach ends stuck once the chase stops closing in, naming how near it came', async () => {
    const { bot, server } = world;
    // A 7×7 bedrock pen around a zombie without AI: from outside its walls the bot stays more than 3 blocks off.
    const centre = server.spawn.offset(9, 0, 0).floored();
    await fill(server, centre.offset(-3, -1, -3), centre.offset(3, 3, 3), 'bedrock');
    await fill(server, centre.offset(-2, 0, -2), centre.offset(2, 2, 2), 'air');
    const zombie = await spawnMob(server, 'zombie', centre.offset(0.5, 0, 0.5), { hostile: false });
    await waitUntil(world.server, () => bot.entities[zombie.id] !== undefined, 100);
    const outcome = await world.step('attack_entity', { entity: 'zombie', maxDistance: 16 });
    expect(outcome.failure?.code, JSON.stringify(outcome.failure)).toBe('stuck');
    expect(outcome.failure?.reason).toMatch(/could not get within 3 blocks of zombie: 10 s without a hit or coming 1 block nearer \(at \d+\.\d\)/);
    expect(distanceTo(zombie.id)).toBeGreaterThan(3);
  });

  it('fails the guard when no such entity is near', async () => {
    const outcome = await world.step('attack_entity', { entity: 'zombie' });
    expect(outcome.failure?.code).toBe('guard_failed');
  });
});

describe('flee from an entity', () => {
  it('outruns a chasing zombie to the wanted distance', async () => {
    const { bot, server } = world;
    const zombie = await spawnMob(server, 'zombie', server.spawn.offset(3, 0, 0), { speed: 2 });
    await waitUntil(world.server, () => bot.entities[zombie.id] !== undefined, 100);
    const outcome = await world.step('flee', { entity: 'zombie', distance: 10 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(distanceTo(zombie.id)).toBeGreaterThanOrEqual(8);
  });
});

describe('navigate to an entity', () => {
  it('walks up to the nearest cow', async () => {
    const { bot, server } = world;
    const cow = await spawnMob(server, 'cow', server.spawn.offset(-8, 0, 4));
    await waitUntil(world.server, () => bot.entities[cow.id] !== undefined, 100);
    const outcome = await world.step('navigate', { entity: 'cow', range: 2 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(distanceTo(cow.id)).toBeLessThanOrEqual(3.5);
  });
});
