import { describe, expect, it } from 'vitest';
import { biomeAt } from '../src/body/biomes.js';
import { useWorld } from './world.js';

/** Seed 1: spawn in taiga; sand on a beach about 30 blocks out, forest about 48 blocks out. */
const SEED = 1;

describe('explore a generated world for blocks and biomes', () => {
  const world = useWorld('scout', { server: { world: { generator: 'terrain', seed: SEED } } });

  it('finds a biome out of sight and ends standing in it', async () => {
    const biomeHere = () => biomeAt(world.bot, world.bot.entity.position.floored());
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
