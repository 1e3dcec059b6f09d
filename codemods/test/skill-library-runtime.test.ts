import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Bot } from 'mineflayer';
import { give, setBlock } from '@sinew/testkit';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentShare, fixtures } from './helpers.js';
import { live, type Live } from './live.js';

let world: Live;

const count = (bot: Bot, name: string) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);
const itemId = (bot: Bot, name: string) => bot.registry.itemsByName[name]!.id;

// The primitives an agent loop defines as globals before it evaluates a stored skill file: real mineflayer calls.
const PRIMITIVES: Record<string, unknown> = {
  Vec3,
  chatLine: async (bot: Bot, text: string) => bot.chat(text),
  waitTicks: (bot: Bot, ticks: number) => bot.waitForTicks(ticks),
  countItem: count,
  tossItem: async (bot: Bot, name: string, n: number) => bot.toss(itemId(bot, name), null, n),
  equipItem: async (bot: Bot, name: string, slot: 'hand' | 'off-hand') => bot.equip(itemId(bot, name), slot),
  placeItem: async (bot: Bot, name: string, at: Vec3) => {
    await bot.equip(itemId(bot, name), 'hand');
    const below = bot.blockAt(at.offset(0, -1, 0));
    if (!below) throw new Error(`nothing below ${at}`);
    await bot.placeBlock(below, new Vec3(0, 1, 0));
  },
  mineBlock: async (bot: Bot, name: string, wanted: number) => {
    let mined = 0;
    for (; mined < wanted; mined++) {
      const block = bot.findBlock({ matching: bot.registry.blocksByName[name]!.id, maxDistance: 4 });
      if (!block) break;
      await bot.dig(block);
    }
    return mined;
  },
};

const library = join(fixtures, 'skill-library');
const files = readdirSync(library).map((name) => join(library, name));

beforeAll(async () => {
  Object.assign(globalThis, PRIMITIVES);
  world = await live(files, {}, 'skills');
  Object.assign(globalThis, { mcData: world.bot.registry });
});
afterAll(async () => {
  for (const name of [...Object.keys(PRIMITIVES), 'mcData']) Reflect.deleteProperty(globalThis, name);
  await world?.close();
});

describe('a directory of script-style skills an agent stored (6 files, runtime globals), wrapped, on a real bot', () => {
  it('wraps at least 90 % of the top-level async skills; the synchronous helpers taking the bot are reported', () => {
    const { report } = world.result;
    expect({ wrapped: report.wrapped, skipped: report.skipped, unsafe: report.unsafe }).toEqual({ wrapped: 42, skipped: 2, unsafe: 0 });
    expect(report.wrapped / (report.wrapped + report.skipped)).toBeGreaterThanOrEqual(0.9);
    expect(report.findings.filter((f) => f.kind === 'skipped').map((f) => `${f.symbol}:${f.code}`)).toEqual(['inventorySummary:not_async', 'hasRoomFor:not_async']);
    // x, y, z handed to the untyped global Vec3, a mob name compared with an untyped field, a message passed to an untyped helper.
    expect(argumentShare(world.result)).toEqual({ args: 72, unknown: 9 });
  });

  it('place_marker: places the block through the placeItem and Vec3 globals; a string coordinate is invalid_args naming x', async () => {
    await give(world.bot, 'oak_planks', 2);
    const spot = world.server.spawn.offset(2, 0, 1).floored();
    await setBlock(world.server, spot, 'air');
    await world.succeeds('place_marker', { blockName: 'oak_planks', x: spot.x, y: spot.y, z: spot.z });
    expect(world.bot.blockAt(spot)?.name).toBe('oak_planks');
    await world.refused('place_marker', { blockName: 'oak_planks', x: 'two', y: spot.y, z: spot.z }, 'x');
  });

  it('drop_all_of: tosses every one; a number for itemName is invalid_args naming itemName', async () => {
    await give(world.bot, 'cobblestone', 7);
    await world.succeeds('drop_all_of', { itemName: 'cobblestone' });
    expect(count(world.bot, 'cobblestone')).toBe(0);
    await world.refused('drop_all_of', { itemName: 4 }, 'itemName');
  });

  it('greet_everyone: says the greeting; a list for greeting is invalid_args naming greeting', async () => {
    const heard = world.nextChat();
    await world.succeeds('greet_everyone', { greeting: 'hello from a stored skill' });
    await expect(heard).resolves.toBe('hello from a stored skill');
    await world.refused('greet_everyone', { greeting: ['hello'] }, 'greeting');
  });

  it('hold_tool: a tool the bot lacks fails runner_error with what the skill console.logged, never only "returned false"', async () => {
    const outcome = await world.step('hold_tool', { toolName: 'diamond_pickaxe' });
    expect(outcome.failure).toMatchObject({ code: 'runner_error', reason: 'no diamond_pickaxe to hold (holdTool returned false)' });
    const misspelled = await world.step('hold_tool', { toolName: 'stick', tool: 'stick' });
    expect(misspelled.failure?.code).toBe('invalid_args');
    expect(misspelled.failure?.reason).toContain('unknown key `tool` — known keys: toolName');
  });
});
