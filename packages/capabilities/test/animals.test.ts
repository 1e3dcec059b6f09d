import { give } from '@sinew/testkit';
import { describe, expect, it } from 'vitest';
import { countItem, useWorld } from './world.js';

/** Seed 1 spawns pigs and sheep within 20 blocks of spawn, chickens 18–48 blocks out and cows 38–53 blocks out. */
const SEED = 1;

describe('animals in a generated world: hunt them, shear them', () => {
  const world = useWorld('hunter', { server: { world: { generator: 'terrain', seed: SEED } } });

  const wool = () => world.bot.inventory.items().filter((i) => i.name.endsWith('_wool')).reduce((n, i) => n + i.count, 0);

  it('hunt kills a pig and picks up its porkchops (has_item:porkchop:+1)', async () => {
    // A sword kills in two hits where a fist needs ten: the test's time goes to walking, not punching.
    await give(world.bot, 'iron_sword', 1);
    await world.bot.equip(world.bot.registry.itemsByName.iron_sword!.id, 'hand');
    const outcome = await world.step('hunt', { animal: 'pig' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(countItem(world.bot, 'porkchop')).toBeGreaterThanOrEqual(1);
  });

  it('shear without shears asks for them; with shears it shears a sheep and picks up 1–3 wool', async () => {
    const refused = await world.step('shear', {});
    expect(refused.failure).toMatchObject({ code: 'precond_missing', missing: ['has_item:shears:1'] });
    await give(world.bot, 'shears', 1);
    const outcome = await world.step('shear', { count: 1 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(wool()).toBeGreaterThanOrEqual(1);
    expect(wool()).toBeLessThanOrEqual(3);
  });

  it('explore gives up coded (not_found) when nothing of the kind is within maxRadius, and refuses unknown targets', async () => {
    const missing = await world.step('explore', { target: { block: 'diamond_block' }, maxRadius: 16 });
    expect(missing.failure).toMatchObject({ code: 'effects_unmet', reason: expect.stringContaining('not_found') });
    expect((await world.step('explore', { target: { mob: 'dragonfly' } })).failure?.code).toBe('guard_failed');
    expect((await world.step('explore', { target: { mob: 'cow', block: 'sand' } })).failure?.code).toBe('invalid_args');
    expect((await world.step('hunt', { animal: 'wolf' })).failure?.code).toBe('invalid_args');
  });
});
