import { give, teleport } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { biomeAt } from '../src/body/biomes.js';
import { countItem, useWorld } from './world.js';

/** Seed 1: spawn in taiga; cows 38–53 blocks out, sand on a beach about 30 blocks out, forest about 48 blocks out. */
const SEED = 1;

describe('explore a generated world for mobs, biomes and blocks', () => {
  const world = useWorld('scout', { server: { world: { generator: 'terrain', seed: SEED } } });

  it('finds cows out of sight (walking the spiral), then hunt takes beef from one', async () => {
    const cowsInSight = () => Object.values(world.bot.entities).filter((e) => e.name === 'cow' && e.position.distanceTo(world.bot.entity.position) <= 32);
    expect(cowsInSight()).toEqual([]);
    const found = await world.step('explore', { target: { mob: 'cow' }, maxRadius: 96 });
    expect(found.status, JSON.stringify(found.failure)).toBe('succeeded');
    expect(cowsInSight().length).toBeGreaterThan(0);
    await give(world.bot, 'iron_sword', 1);
    await world.bot.equip(world.bot.registry.itemsByName.iron_sword!.id, 'hand');
    const outcome = await world.step('hunt', { animal: 'cow' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(countItem(world.bot, 'beef')).toBeGreaterThanOrEqual(1);
  });

  it('finds a biome out of sight and ends standing in it', async () => {
    const biomeHere = () => biomeAt(world.bot, world.bot.entity.position.floored());
    await teleport(world.bot, world.server.spawn);
    expect(biomeHere()).toBe('taiga');
    const outcome = await world.step('explore', { target: { biome: 'forest' }, maxRadius: 96 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(biomeHere()).toBe('forest');
  });

  it('refuses a biome the server does not know', async () => {
    expect((await world.step('explore', { target: { biome: 'moon' } })).failure?.code).toBe('guard_failed');
  });

  it('finds a block and ends next to it (near_block:sand holds)', async () => {
    const outcome = await world.step('explore', { target: { block: 'sand' } });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    const sand = world.bot.findBlock({ matching: world.bot.registry.blocksByName.sand!.id, maxDistance: 4 });
    expect(sand).not.toBeNull();
  });
});
