import { join } from 'node:path';
import { give } from '@sinew/testkit';
import { Node, Project } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from './helpers.js';
import { live, type Live } from './live.js';

const SKILLS = join(fixtures, 'docblock/skills.js');
let world: Live;

beforeAll(async () => {
  world = await live([SKILLS], {}, 'docblock');
});
afterAll(() => world?.close());

/** Every literal default of every exported skill (`num = 1`, `foodName = null`, `only = []`), by verb and key. */
function ownDefaults(): { verb: string; key: string; value: unknown }[] {
  const file = new Project({ compilerOptions: { allowJs: true } }).addSourceFileAtPath(SKILLS);
  const found: { verb: string; key: string; value: unknown }[] = [];
  for (const fn of file.getFunctions().filter((f) => f.isExported())) {
    for (const param of fn.getParameters().slice(1)) {
      const init = param.getInitializer();
      if (!init || !Node.isIdentifier(param.getNameNode())) continue;
      const verb = fn.getName()!.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      found.push({ verb, key: param.getName(), value: JSON.parse(init.getText().replace(/'/g, '"')) as unknown });
    }
  }
  return found;
}

describe('docblock-in-body skills, wrapped, on a real bot', () => {
  it('accepts every skill default value in the generated schema', () => {
    const defaults = ownDefaults();
    expect(defaults.length).toBeGreaterThanOrEqual(12);
    for (const { verb, key, value } of defaults) {
      const capability = world.registry.get(verb);
      expect(capability, verb).toBeDefined();
      const parsed = capability!.inputSchema.safeParse({ [key]: value });
      const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => issue.path[0] === key);
      expect(issues, `${verb}.${key} = ${JSON.stringify(value)}`).toEqual([]);
    }
  });

  it('say_out_loud: the bot says it in chat; a number for text is invalid_args naming text', async () => {
    const heard = world.nextChat();
    await world.succeeds('say_out_loud', { text: 'docs inside the body' });
    await expect(heard).resolves.toBe('docs inside the body');
    await world.refused('say_out_loud', { text: 42 }, 'text');
  });

  it('hold_item: equips the item into the documented slot enum; an unknown slot is invalid_args naming slot', async () => {
    await give(world.bot, 'stone_pickaxe');
    await world.succeeds('hold_item', { itemName: 'stone_pickaxe' });
    expect(world.bot.heldItem?.name).toBe('stone_pickaxe');
    await world.refused('hold_item', { itemName: 'stone_pickaxe', slot: 'pocket' }, 'slot');
  });

  it('break_block_at: the block is gone; a string coordinate is invalid_args naming y', async () => {
    const target = await world.placeNear(2, 0, 0, 'dirt');
    await world.succeeds('break_block_at', { x: target.x, y: target.y, z: target.z });
    expect(world.bot.blockAt(target)?.name).toBe('air');
    await world.refused('break_block_at', { x: target.x, y: 'up', z: target.z }, 'y');
  });

  it('craft_simple: a false result fails with what the skill wrote to bot.output, not only "returned false"', async () => {
    const outcome = await world.step('craft_simple', { itemName: 'stick', num: 2 });
    expect(outcome.failure?.code).toBe('runner_error');
    expect(outcome.failure?.reason).toBe('You do not have the resources to craft stick. It requires: oak_planks: 4. (craftSimple returned false)');
    await world.refused('craft_simple', { itemName: 'stick', num: 'two' }, 'num');
  });

  it('eat_food: foodName = null is nullable and optional, so null and nothing both reach the skill', async () => {
    for (const args of [{ foodName: null }, {}]) {
      const outcome = await world.step('eat_food', args);
      expect(outcome.failure?.code, JSON.stringify(args)).toBe('runner_error');
      expect(outcome.failure?.reason).toMatch(/^(Nothing to eat\.|Not hungry\.) \(eatFood returned false\)$/);
    }
  });
});
