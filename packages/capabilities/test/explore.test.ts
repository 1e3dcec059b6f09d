import { createExecutor, createMemoryProvenance } from '@sinew/bt-runtime';
import { give, teleport } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { biomeAt } from '../src/body/biomes.js';
import { createStandardRegistry } from '../src/index.js';
import { countItem, useWorld } from './world.js';

/**
 * Seed 1: spawn in taiga; cows 38–53 blocks out, sand on a beach about 30 blocks out, forest about 48 blocks out, the
 * nearest open water (sea level) about 48 blocks out.
 */
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

  it('sees open water past the near sight from where it stands and walks straight to it (no waypoint)', async () => {
    const { bot, server } = world;
    await teleport(bot, server.spawn);
    const water = bot.registry.blocksByName.water!.id;
    const near = bot.findBlocks({ matching: water, maxDistance: 32, count: 4096 }).filter((p) => [[0, 1, 0], [0, -1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]].some(([dx, dy, dz]) => /air/.test(bot.blockAt(p.offset(dx!, dy!, dz!))?.name ?? 'stone')));
    expect(near).toEqual([]);
    const memory = createMemoryProvenance();
    const executor = createExecutor({ registry: createStandardRegistry(), body: bot, provenance: [memory], policy: { maxLocalRetries: 0 } });
    try {
      const outcome = await executor.run({ planId: 'far-water', intentId: 'test', steps: [{ stepId: 's1', type: 'explore', args: { target: { block: 'water' } } }] });
      expect(outcome.steps[0]!.status, JSON.stringify(outcome.steps[0]!.failure)).toBe('succeeded');
      const notes = memory.records().find((r) => r.stepId === 's1')!.trace.filter((e) => e.kind === 'progress').map((e) => e.name);
      expect(notes.filter((note) => note.includes('waypoint')), notes.join('\n')).toEqual([]);
      expect(notes.some((note) => /in view (\d+) blocks away/.test(note) && Number(/in view (\d+)/.exec(note)![1]) > 32), notes.join('\n')).toBe(true);
      expect(bot.findBlock({ matching: water, maxDistance: 4 })).not.toBeNull();
    } finally {
      await executor.close();
    }
  });
});
