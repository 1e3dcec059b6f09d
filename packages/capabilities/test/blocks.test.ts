import { fill, give, setBlock } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { blockKey } from '@sinew/executor-contracts';
import { digBlock, type ObservedWorld } from '../src/index.js';
import { countItem, useWorld, waitUntil } from './world.js';

const world = useWorld();

const count = (name: string): number => countItem(world.bot, name);

describe('dig_block', () => {
  it('breaks the block at a position; acceptance sees air', async () => {
    const { bot, server } = world;
    const target = server.spawn.offset(2, 0, 0).floored();
    await setBlock(server, target, 'dirt');
    const outcome = await world.step('dig_block', { position: target });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.blockAt(target)?.name).toBe('air');
  });

  it('breaks the nearest block of a kind', async () => {
    const { bot, server } = world;
    const near = server.spawn.offset(-2, 0, 1).floored();
    const far = server.spawn.offset(-9, 0, 1).floored();
    await setBlock(server, near, 'oak_planks');
    await setBlock(server, far, 'oak_planks');
    const outcome = await world.step('dig_block', { block: 'oak_planks' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.blockAt(near)?.name).toBe('air');
    expect(bot.blockAt(far)?.name).toBe('oak_planks');
  });

  it('keeps its target for the step: once dug, the snapshot still observes it (not the next block of the kind)', async () => {
    const { bot, server } = world;
    const near = server.spawn.offset(-2, 0, 1).floored();
    const far = server.spawn.offset(-5, 0, 1).floored();
    await setBlock(server, near, 'oak_log');
    await setBlock(server, far, 'oak_log');
    const args = digBlock.inputSchema.parse({ block: 'oak_log' });
    const pre = digBlock.observe({ body: bot }, args) as ObservedWorld;
    expect(Object.keys(pre.blocks)).toEqual([blockKey(near)]);
    await setBlock(server, near, 'air');
    await waitUntil(world.server, () => bot.blockAt(near)?.name === 'air', 60);
    const post = digBlock.observe({ body: bot }, args) as ObservedWorld;
    expect(post.blocks).toEqual({ [blockKey(near)]: 'air' });
    expect(digBlock.acceptance(pre, post, args).ok).toBe(true);
  });

  it('asks to get within reach of a far block (precond_missing within_reach)', async () => {
    const { server } = world;
    const far = server.spawn.offset(10, 0, 0).floored();
    await setBlock(server, far, 'dirt');
    const outcome = await world.step('dig_block', { position: far });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual([`within_reach:${far.x},${far.y},${far.z}`]);
  });

  it('asks for the tool a block needs (precond_missing has_item)', async () => {
    const { server } = world;
    const stone = server.spawn.offset(2, 0, 0).floored();
    await setBlock(server, stone, 'stone');
    const outcome = await world.step('dig_block', { position: stone });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:wooden_pickaxe:1']);
  });

  it('refuses air and unbreakable blocks (guard_failed)', async () => {
    const { server } = world;
    const spot = server.spawn.offset(2, 0, 0).floored();
    expect((await world.step('dig_block', { position: spot })).failure?.code).toBe('guard_failed');
    await setBlock(server, spot, 'bedrock');
    expect((await world.step('dig_block', { position: spot })).failure?.code).toBe('guard_failed');
  });
});

describe('place_block', () => {
  it('places at a position; acceptance reads the block', async () => {
    const { bot, server } = world;
    await give(bot, 'cobblestone', 2);
    const target = server.spawn.offset(2, 0, 1).floored();
    const outcome = await world.step('place_block', { item: 'cobblestone', position: target });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.blockAt(target)?.name).toBe('cobblestone');
    expect(count('cobblestone')).toBe(1);
  });

  it('places on a free spot next to the bot when no position is given', async () => {
    const { bot } = world;
    await give(bot, 'crafting_table', 1);
    const outcome = await world.step('place_block', { item: 'crafting_table' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.findBlock({ matching: bot.registry.blocksByName.crafting_table!.id, maxDistance: 4 })).toBeTruthy();
  });

  it('never places against a crafting table (a click opens it): ringed by cobblestone and a table, the furnace goes onto the cobblestone', async () => {
    const { bot, server } = world;
    await give(bot, 'furnace', 1);
    const feet = bot.entity.position.floored();
    // Every spot beside the feet is taken; the first one above them in the search order sits on the table.
    await fill(server, feet.offset(-2, 0, -2), feet.offset(2, 0, 2), 'cobblestone');
    await setBlock(server, feet, 'air');
    const table = feet.offset(1, 0, 0);
    await setBlock(server, table, 'crafting_table');
    await waitUntil(world.server, () => bot.blockAt(table)?.name === 'crafting_table', 60);
    const outcome = await world.step('place_block', { item: 'furnace' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.blockAt(table.offset(0, 1, 0))?.name).toBe('air');
    expect(bot.findBlock({ matching: bot.registry.blocksByName.furnace!.id, maxDistance: 4 })).toBeTruthy();
  });

  it('succeeds without the item when the position already holds it (a step resumed after it placed)', async () => {
    const { bot, server } = world;
    await give(bot, 'cobblestone', 1);
    const target = server.spawn.offset(-2, 0, 1).floored();
    expect((await world.step('place_block', { item: 'cobblestone', position: target })).status).toBe('succeeded');
    expect(count('cobblestone')).toBe(0);
    const again = await world.step('place_block', { item: 'cobblestone', position: target });
    expect(again.status, JSON.stringify(again.failure)).toBe('succeeded');
    expect(bot.blockAt(target)?.name).toBe('cobblestone');
  });

  it('asks for the item it does not have (precond_missing has_item)', async () => {
    const outcome = await world.step('place_block', { item: 'crafting_table' });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:crafting_table:1']);
  });
});

describe('build_structure', () => {
  it('places every block of a blueprint; acceptance checks each', async () => {
    const { bot, server } = world;
    await give(bot, 'oak_planks', 4);
    const origin = server.spawn.offset(3, 0, -1).floored();
    const blueprint = [
      { dx: 0, dy: 0, dz: 0, block: 'oak_planks' },
      { dx: 0, dy: 0, dz: 1, block: 'oak_planks' },
      { dx: 0, dy: 1, dz: 0, block: 'oak_planks' },
      { dx: 0, dy: 1, dz: 1, block: 'oak_planks' },
    ];
    const outcome = await world.step('build_structure', { origin, blueprint });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    for (const { dx, dy, dz } of blueprint) expect(bot.blockAt(origin.offset(dx, dy, dz))?.name).toBe('oak_planks');
  });

  it('lists the blocks it lacks (precond_missing)', async () => {
    const { bot, server } = world;
    await give(bot, 'oak_planks', 1);
    const outcome = await world.step('build_structure', {
      origin: server.spawn.offset(3, 0, 0).floored(),
      blueprint: [
        { dx: 0, dy: 0, dz: 0, block: 'oak_planks' },
        { dx: 1, dy: 0, dz: 0, block: 'oak_planks' },
        { dx: 2, dy: 0, dz: 0, block: 'cobblestone' },
      ],
    });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:oak_planks:2', 'has_item:cobblestone:1']);
  });

  it('refuses a blueprint spot that is occupied (guard_failed)', async () => {
    const { bot, server } = world;
    await give(bot, 'oak_planks', 1);
    const origin = server.spawn.offset(3, 0, 0).floored();
    await fill(server, origin, origin, 'stone');
    const outcome = await world.step('build_structure', { origin, blueprint: [{ dx: 0, dy: 0, dz: 0, block: 'oak_planks' }] });
    expect(outcome.failure?.code).toBe('guard_failed');
  });
});
