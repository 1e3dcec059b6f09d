import { join } from 'node:path';
import type { Bot } from 'mineflayer';
import { give } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentShare, fixtures } from './helpers.js';
import { live, type Live } from './live.js';

let world: Live;

const count = (bot: Bot, name: string) => bot.inventory.items().filter((i) => i.name === name).reduce((n, i) => n + i.count, 0);

// The primitives the agent's runtime defines as globals before it evaluates a stored skill (real mineflayer calls).
const PRIMITIVES: Record<string, unknown> = {
  chatLine: async (bot: Bot, text: string) => bot.chat(text),
  waitTicks: (bot: Bot, ticks: number) => bot.waitForTicks(ticks),
  nearbyPlayerNames: (bot: Bot, range: number) =>
    Object.values(bot.players).filter((p) => p.entity && p.username !== bot.username && p.entity.position.distanceTo(bot.entity.position) <= range).map((p) => p.username),
  countItem: count,
  tossItem: async (bot: Bot, name: string, n: number) => bot.toss(bot.registry.itemsByName[name]!.id, null, n),
  equipItem: async (bot: Bot, name: string, slot: 'hand') => bot.equip(bot.registry.itemsByName[name]!.id, slot),
  mineBlock: async (bot: Bot, name: string, wanted: number) => {
    let mined = 0;
    while (mined < wanted) {
      const block = bot.findBlock({ matching: bot.registry.blocksByName[name]!.id, maxDistance: 4 });
      if (!block) break;
      await bot.dig(block);
      mined += 1;
    }
    return mined;
  },
};

beforeAll(async () => {
  Object.assign(globalThis, PRIMITIVES);
  const scripts = ['greetings.js', 'mining.js', 'inventory.js'].map((name) => join(fixtures, 'scripts', name));
  world = await live(scripts, {}, 'scripts');
});
afterAll(async () => {
  for (const name of Object.keys(PRIMITIVES)) Reflect.deleteProperty(globalThis, name);
  await world?.close();
});

describe('script-style skill files (no exports, runtime globals), wrapped, on a real bot', () => {
  it('wraps every top-level async function of the directory, typed from defaults and how the primitives are called', () => {
    expect({ wrapped: world.result.report.wrapped, skipped: world.result.report.skipped }).toEqual({ wrapped: 9, skipped: 1 });
    expect(argumentShare(world.result)).toEqual({ args: 11, unknown: 1 });
    const mining = world.result.changes.find((c) => c.path.endsWith('mining.capabilities.js'))!.after;
    expect(mining).toContain("scriptFunction('./mining.js', ['chatLine', 'countItem', 'mineBlock'], 'mineNamed')(ctx.body, args.blockName, args.count)");
  });

  it('announce: says it as often as asked; a number for message is invalid_args naming message', async () => {
    const heard = world.nextChat();
    await world.succeeds('announce', { message: 'stored skill speaking' });
    await expect(heard).resolves.toBe('stored skill speaking');
    await world.refused('announce', { message: 5 }, 'message');
  });

  it('mine_named: digs the named block through the mineBlock global; a number for blockName is invalid_args', async () => {
    const target = await world.placeNear(2, 0, 1, 'oak_planks');
    await world.succeeds('mine_named', { blockName: 'oak_planks' });
    expect(world.bot.blockAt(target)?.name).toBe('air');
    await world.refused('mine_named', { blockName: 3 }, 'blockName');
  });

  it('keep_at_most: tosses what is over the limit; a string max is invalid_args naming max', async () => {
    await give(world.bot, 'cobblestone', 10);
    await world.succeeds('keep_at_most', { itemName: 'cobblestone', max: 4 });
    expect(count(world.bot, 'cobblestone')).toBe(4);
    await world.refused('keep_at_most', { itemName: 'cobblestone', max: 'four' }, 'max');
  });

  it('fails runner_error naming a global the runtime did not define, never silently', async () => {
    Reflect.deleteProperty(globalThis, 'countItem');
    try {
      const outcome = await world.step('keep_at_most', { itemName: 'cobblestone' });
      expect(outcome.failure).toMatchObject({
        code: 'runner_error',
        reason: './inventory.js expects the global(s) countItem at run time; define them before running keepAtMost',
      });
    } finally {
      Object.assign(globalThis, { countItem: PRIMITIVES.countItem });
    }
  });
});
