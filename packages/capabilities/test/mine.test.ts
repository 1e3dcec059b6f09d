import { give } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countItem, startWorld, type TestWorld } from './world.js';

const SEED = 1;

describe('mine in a generated world', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await startWorld('miner', { world: { generator: 'terrain', seed: SEED } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('asks for a pickaxe first', async () => {
    const refused = await world.step('mine', { target: { depth: 50 } });
    expect(refused.failure).toMatchObject({ code: 'precond_missing', missing: ['has_item:wooden_pickaxe:1'] });
  });

  it('stairs down to a depth', async () => {
    await give(world.bot, 'diamond_pickaxe', 1);
    await give(world.bot, 'torch', 8);
    const depth = Math.floor(world.bot.entity.position.y) - 8;
    const started = Date.now();
    const outcome = await world.step('mine', { target: { depth } });
    console.log(Date.now() - started, JSON.stringify(outcome));
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(world.bot.entity.position.y).toBeLessThanOrEqual(depth + 0.01);
  });

  it('finds coal and comes back up', async () => {
    const started = Date.now();
    const outcome = await world.step('mine', { target: { ore: 'coal' }, returnToSurface: true });
    console.log(Date.now() - started, JSON.stringify(outcome));
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(countItem(world.bot, 'coal')).toBeGreaterThanOrEqual(1);
  });
});
