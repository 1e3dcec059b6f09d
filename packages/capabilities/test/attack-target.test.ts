import { give, spawnMob, waitUntil as waitTicks } from '@sinew/testkit';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { useWorld, waitUntil } from './world.js';

const world = useWorld('fighter');

/** Two passive zombies (no AI: the fight is deterministic), the decoy nearer than the one aimed at. */
async function twoZombies(): Promise<{ aimed: number; decoy: number }> {
  const { bot, server } = world;
  const aimed = await spawnMob(server, 'zombie', server.spawn.offset(-3.5, 0, 1.5), { hostile: false });
  const decoy = await spawnMob(server, 'zombie', server.spawn.offset(1.5, 0, 0.5), { hostile: false });
  await waitUntil(world.server, () => bot.entities[aimed.id] !== undefined && bot.entities[decoy.id] !== undefined, 100);
  return { aimed: aimed.id, decoy: decoy.id };
}

describe('attack_entity by entityId', () => {
  it('hits the entity with that id, not the nearer zombie; acceptance reads that one', async () => {
    const { bot } = world;
    await give(bot, 'wooden_sword', 1);
    const { aimed, decoy } = await twoZombies();
    const outcome = await world.step('attack_entity', { entityId: aimed, hits: 2 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    await waitUntil(world.server, () => (bot.sinew.hurtCounts.get(aimed) ?? 0) >= 2, 100);
    expect(bot.sinew.hurtCounts.get(decoy) ?? 0).toBe(0);
  });

  it('fails its guard naming why: an id nobody has, an id beyond maxDistance', async () => {
    const { aimed } = await twoZombies();
    const unknown = await world.step('attack_entity', { entityId: 987_654 });
    expect(unknown.failure).toMatchObject({ code: 'guard_failed' });
    expect(unknown.failure?.reason).toContain('#987654 is not alive in view');
    const far = await world.step('attack_entity', { entityId: aimed, maxDistance: 2.5 });
    expect(far.failure?.code).toBe('guard_failed');
    expect(far.failure?.reason).toMatch(/zombie #\d+ is 3\.\d blocks away, beyond maxDistance 2\.5/);
  });

  /** Fights a zombie standing (no AI) 1.2 blocks east of the bot; → how far west of its start the bot went, at most. */
  async function fightEast(args: Record<string, unknown>): Promise<number> {
    const { bot, server } = world;
    await give(bot, 'wooden_sword', 1);
    const startX = bot.entity.position.x;
    const zombie = await spawnMob(server, 'zombie', bot.entity.position.offset(1.2, 0, 0), { hostile: false });
    await waitUntil(world.server, () => bot.entities[zombie.id] !== undefined, 100);
    let minX = startX;
    const onMove = () => void (minX = Math.min(minX, bot.entity.position.x));
    bot.on('move', onMove);
    try {
      const outcome = await world.step('attack_entity', { entityId: zombie.id, hits: 2, ...args });
      expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    } finally {
      bot.removeListener('move', onMove);
    }
    return startX - minX;
  }

  it('keepAway: between hits the bot backs away, facing it, from a zombie closer than that', async () => {
    expect(await fightEast({ keepAway: 2.4 })).toBeGreaterThan(0.5);
  });

  it('without keepAway the bot stands and hits a zombie within its reach', async () => {
    expect(await fightEast({})).toBeLessThan(0.2);
  });

  it('keepAway: with another zombie within reach and the target beyond it, the fight ends at once naming why (no chase past it)', async () => {
    const { bot, server } = world;
    const startX = bot.entity.position.x;
    const far = await spawnMob(server, 'zombie', bot.entity.position.offset(5, 0, 0), { hostile: false });
    await spawnMob(server, 'zombie', bot.entity.position.offset(-1.5, 0, 0.3), { hostile: false });
    await waitUntil(world.server, () => Object.values(bot.entities).filter((e) => e.name === 'zombie').length === 2, 100);
    const outcome = await world.step('attack_entity', { entityId: far.id, keepAway: 2.4 });
    expect(outcome.failure).toMatchObject({ code: 'guard_failed', reason: expect.stringContaining(`zombie #${far.id} is not: aim at that one`) });
    expect(Math.abs(bot.entity.position.x - startX)).toBeLessThan(0.5);
  });

  it('keepAway: a burst whose target is knocked out of reach goes on at the zombie within reach (side hits), not idle', async () => {
    const { bot, server } = world;
    await give(bot, 'wooden_sword', 1);
    const start = bot.entity.position.clone();
    const target = await spawnMob(server, 'zombie', start.offset(2.2, 0, 0.4), { hostile: false });
    const other = await spawnMob(server, 'zombie', start.offset(-0.6, 0, -2.3), { hostile: false });
    expect(await waitTicks(server, () => bot.entities[target.id] !== undefined && bot.entities[other.id] !== undefined, 40)).toBe(true);
    const step = world.step('attack_entity', { entityId: target.id, hits: 4, keepAway: 2 });
    // after its first hit the target is carried 7 blocks off (a long knock-back); the other stays within reach
    expect(await waitTicks(server, () => (bot.sinew.hurtCounts.get(target.id) ?? 0) >= 1, 100)).toBe(true);
    await target.entity!.sendPosition(new Vec3(start.x + 9, start.y, start.z + 0.4), true, true);
    const outcome = await step;
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    // the hurt packet of the first hit may come after the second swing: one or two hits on the target, the rest beside it
    expect(outcome.observables, JSON.stringify(outcome.observables)).toMatchObject({ target: target.id, hits: 4 });
    const sideHits = Number(outcome.observables?.['sideHits']);
    expect(sideHits).toBeGreaterThanOrEqual(2);
    expect(await waitTicks(server, () => (bot.sinew.hurtCounts.get(other.id) ?? 0) >= sideHits, 40)).toBe(true);
  });

  it('refuses an id beside a kind, and an id that is not a whole number', async () => {
    const both = await world.step('attack_entity', { entity: 'zombie', entityId: 3 });
    expect(both.failure?.code).toBe('invalid_args');
    expect(both.failure?.reason).toContain('give entity or entityId, not both');
    const fraction = await world.step('attack_entity', { entityId: 2.5 });
    expect(fraction.failure?.code).toBe('invalid_args');
  });
});
