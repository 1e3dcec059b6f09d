import { join } from 'node:path';
import { give } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from './helpers.js';
import { live, type Live } from './live.js';

let world: Live;

// A command table whose performs are wrapped (runAsAction, and `throttled` through --unwrap) and the untyped
// world helpers it calls: the table's declared params type both.
beforeAll(async () => {
  world = await live([join(fixtures, 'wrapped/commands.js'), join(fixtures, 'wrapped/world.js')], { unwrap: ['throttled'] }, 'wrapped');
});
afterAll(() => world?.close());

describe('wrapped-perform commands and the helpers they type, on a real bot', () => {
  it('wraps every entry, runAsAction ones included, and the helpers with the types the table declares', () => {
    expect(world.result.report.findings.filter((f) => f.kind !== 'wrapped')).toEqual([]);
    const helpers = world.result.changes.find((c) => c.path.endsWith('world.capabilities.js'))!.after;
    expect(helpers).toContain('y: z.number().int().min(-64).max(320),');
    expect(helpers).toContain('where: z.string().optional(),');
  });

  it('reads the failure texts runAsAction and throttled build (catch, refusal, interruption, a false result) from their code', () => {
    const text = world.result.changes.find((c) => c.path.endsWith('commands.capabilities.js'))!.after;
    expect(text).toContain(
      "'!say', [{ prefix: 'Busy with', when: 'refused' }, { prefix: 'Action interrupted:', when: 'interrupted' }, { prefix: 'Action failed.', when: 'returned_false' }, { prefix: 'Action threw:', when: 'threw' }], attempt)",
    );
    expect(text).toContain("'!shout', [{ prefix: 'Wait', when: 'refused' }], attempt)");
  });

  it('discard (runAsAction): the action returned false before acting, so the step fails runner_error with the wrapper text', async () => {
    const outcome = await world.step('discard', { item_name: 'diamond', num: 1 });
    expect(outcome.status).toBe('failed');
    expect(outcome.failure).toMatchObject({ code: 'runner_error', reason: 'Action failed. no diamond to discard (!discard)' });
  });

  it('discard_pair (runAsAction): tossed the first, ran out at the second, so the step fails effects_unmet', async () => {
    await give(world.bot, 'dirt', 2);
    const outcome = await world.step('discard_pair', { first: 'dirt', second: 'emerald', num: 1 });
    expect(outcome.status).toBe('failed');
    expect(outcome.failure).toMatchObject({ code: 'effects_unmet', reason: 'Action failed. ran out at emerald (!discardPair)' });
    await world.refused('discard_pair', { first: 'dirt', second: 'emerald', num: 0 }, 'num');
  });

  it('say (runAsAction): the bot says it; a list for text is invalid_args naming text', async () => {
    const heard = world.nextChat();
    await world.succeeds('say', { text: 'through the wrapper' });
    await expect(heard).resolves.toBe('through the wrapper');
    await world.refused('say', { text: ['through'] }, 'text');
  });

  it('equip (runAsAction): holds the item; a misspelled key is invalid_args naming it', async () => {
    await give(world.bot, 'iron_shovel');
    await world.succeeds('equip', { item_name: 'iron_shovel' });
    expect(world.bot.heldItem?.name).toBe('iron_shovel');
    const wrong = await world.step('equip', { itemName: 'iron_shovel' });
    expect(wrong.failure?.code).toBe('invalid_args');
    expect(wrong.failure?.reason).toContain('itemName');
  });

  it('mine_block_at (runAsAction): breaks the block; a y below the declared domain is invalid_args naming y', async () => {
    const target = await world.placeNear(-2, 0, 1, 'dirt');
    await world.succeeds('mine_block_at', { x: target.x, y: target.y, z: target.z });
    expect(world.bot.blockAt(target)?.name).toBe('air');
    await world.refused('mine_block_at', { x: target.x, y: -100, z: target.z }, 'y');
  });

  it('wave (throttled around runAsAction, seen through with --unwrap): swings; a count past the domain is invalid_args', async () => {
    await world.succeeds('wave', { swings: 1 });
    await world.refused('wave', { swings: 9 }, 'swings');
  });

  it('wield_named (a helper typed by the table): a false result fails with what it wrote to bot.output', async () => {
    const outcome = await world.step('wield_named', { name: 'diamond_hoe' });
    expect(outcome.failure).toMatchObject({ code: 'runner_error', reason: 'no diamond_hoe in inventory (wieldNamed returned false)' });
  });
});
