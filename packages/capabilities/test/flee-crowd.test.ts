import { spawnMob, waitUntil, type SpawnedMob } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { useWorld } from './world.js';

const world = useWorld('runner');
/** The testkit zombie's melee reach (blocks, horizontal). */
const ZOMBIE_REACH = 1.6;

describe('flee among several hostiles', () => {
  it('runs out through the gap between three zombies, never within reach of the two behind it', async () => {
    const { bot, server } = world;
    const s = bot.entity.position.clone();
    // one zombie close on the east, two a few blocks west with a 3-block lane between them: fleeing from the nearest
    // alone runs west down that lane. They stand still (speed 0) so the route is what the test reads, not a race.
    const spots = [
      { x: s.x + 2.4, y: s.y, z: s.z + 0.3 },
      { x: s.x - 4.6, y: s.y, z: s.z - 1.4 },
      { x: s.x - 4.2, y: s.y, z: s.z + 1.7 },
    ];
    const zombies: SpawnedMob[] = [];
    for (const spot of spots) zombies.push(await spawnMob(server, 'zombie', spot, { speed: 0 }));
    expect(await waitUntil(server, () => zombies.every((z) => bot.entities[z.id] !== undefined), 40)).toBe(true);
    const nearest = new Map(zombies.map((z) => [z.id, Infinity]));
    const track = () => {
      for (const z of zombies) {
        const p = bot.entities[z.id]?.position;
        if (p) nearest.set(z.id, Math.min(nearest.get(z.id)!, Math.hypot(p.x - bot.entity.position.x, p.z - bot.entity.position.z)));
      }
    };
    bot.on('move', track);
    try {
      const outcome = await world.step('flee', { from: spots[0], distance: 10 });
      expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    } finally {
      bot.removeListener('move', track);
    }
    const [, west1, west2] = zombies.map((z) => nearest.get(z.id)!);
    expect(Math.min(west1!, west2!)).toBeGreaterThan(ZOMBIE_REACH + 0.5);
    expect(bot.health).toBe(20);
  });
});

describe('flee from one entity (entityId)', () => {
  it('runs until the entity itself is `distance` away, wherever the spot it was asked with lies; an id nobody has, with no spot, fails the guard', async () => {
    const { bot, server } = world;
    const s = bot.entity.position.clone();
    // the zombie stands 3 blocks east; the spot given with it lies 11 blocks west (a prediction gone stale: the chaser
    // came round): measured from the spot, the bot is already far enough and would not move
    const zombie = await spawnMob(server, 'zombie', { x: s.x + 3, y: s.y, z: s.z + 0.5 }, { speed: 0 });
    expect(await waitUntil(server, () => bot.entities[zombie.id] !== undefined, 40)).toBe(true);
    const outcome = await world.step('flee', { from: { x: s.x - 11, y: s.y, z: s.z }, entityId: zombie.id, distance: 10 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    const z = bot.entities[zombie.id]!.position;
    expect(Math.hypot(z.x - bot.entity.position.x, z.z - bot.entity.position.z)).toBeGreaterThanOrEqual(10);
    const nobody = await world.step('flee', { entityId: 987_654, distance: 10 });
    expect(nobody.failure?.code).toBe('guard_failed');
    expect(nobody.failure?.reason).toContain('entity #987654');
  });
});
