import { createExecutor } from '@sinew/bt-runtime';
import { give, setBlock, spawnMob } from '@sinew/testkit';
import { describe, expect, it, vi } from 'vitest';
import { createStandardRegistry, minecraftPredicates } from '../src/index.js';
import { useWorld } from './world.js';

const world = useWorld();
let seq = 0;

/** Runs one step with preconds/effects through an executor that checks them with minecraftPredicates. */
async function step(type: string, args: Record<string, unknown>, declared: { preconds?: string[]; effects?: string[] }) {
  const executor = createExecutor({ registry: createStandardRegistry(), body: world.bot, predicates: minecraftPredicates, policy: { maxLocalRetries: 0 } });
  try {
    const outcome = await executor.run({ planId: `pred-${(seq += 1)}`, intentId: 'test', steps: [{ stepId: 's', type, args, ...declared }] });
    return outcome.steps[0]!;
  } finally {
    await executor.close();
  }
}

describe('minecraftPredicates: step preconds/effects checked on the live bot', () => {
  it('a precond that does not hold ends precond_missing naming it, before the runner acts', async () => {
    const outcome = await step('craft_item', { item: 'oak_planks', count: 4 }, { preconds: ['has_item:oak_log:1'] });
    expect(outcome).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'precond_missing', missing: ['has_item:oak_log:1'] } });
  });

  it('preconds that hold and effects that are observed (a gain since the step started) succeed', async () => {
    await give(world.bot, 'oak_log', 1);
    const outcome = await step('craft_item', { item: 'oak_planks', count: 4 }, { preconds: ['has_item:oak_log:1'], effects: ['has_item:oak_planks:+4'] });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
  });

  it('an effect the world does not show ends effects_unmet naming it', async () => {
    await give(world.bot, 'oak_log', 1);
    const outcome = await step('craft_item', { item: 'oak_planks', count: 4 }, { effects: ['has_item:oak_planks:+4', 'near_block:crafting_table'] });
    expect(outcome).toMatchObject({ status: 'failed', failure: { code: 'effects_unmet', unmet: ['near_block:crafting_table'] } });
  });

  it('reads blocks around the bot: block_at, air_at, near_block', async () => {
    const { server, bot } = world;
    const table = server.spawn.offset(2, 0, 0).floored();
    await setBlock(server, table, 'crafting_table');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const at = `${table.x},${table.y},${table.z}`;
    const baseline = minecraftPredicates.baseline!(bot);
    expect(minecraftPredicates.holds({ kind: 'block_at', position: table, block: 'crafting_table' }, bot, baseline)).toBe(true);
    expect(minecraftPredicates.holds({ kind: 'air_at', position: table }, bot, baseline)).toBe(false);
    expect(minecraftPredicates.holds({ kind: 'near_block', block: 'crafting_table' }, bot, baseline)).toBe(true);
    expect(await step('chat', { message: 'hi' }, { preconds: [`block:${at}=crafting_table`, 'near_block:crafting_table'] })).toMatchObject({ status: 'succeeded' });
  });

  it('reads the fluids around the body: out_of (what escape_fluid declares)', async () => {
    const { server, bot } = world;
    expect(await step('chat', { message: 'dry' }, { preconds: ['out_of:water', 'out_of:lava'] })).toMatchObject({ status: 'succeeded' });
    const feet = bot.entity.position.floored();
    await setBlock(server, feet, 'water');
    await setBlock(server, feet.offset(0, 1, 0), 'water');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(minecraftPredicates.holds({ kind: 'out_of', fluid: 'water' }, bot, undefined)).toBe(false);
    expect(minecraftPredicates.holds({ kind: 'out_of', fluid: 'lava' }, bot, undefined)).toBe(true);
    expect(await step('chat', { message: 'wet' }, { preconds: ['out_of:water'] })).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'precond_missing', missing: ['out_of:water'] } });
  });

  it('a declaration template (placeholders in value slots) is no step predicate: the plan is refused naming it', async () => {
    const executor = createExecutor({ registry: createStandardRegistry(), body: world.bot, predicates: minecraftPredicates });
    try {
      const steps = [{ stepId: 's', type: 'chat', args: { message: 'hi' }, preconds: ['has_item:<item>:1'] }];
      const outcome = await executor.run({ planId: 'template', intentId: 'test', steps });
      expect(outcome.status).toBe('failed');
      expect(JSON.stringify(outcome)).toContain('a placeholder (<name>) stands for a value not known yet');
      expect(outcome.steps.filter((s) => s.status === 'succeeded')).toEqual([]);
    } finally {
      await executor.close();
    }
  });

  it('a kind the evaluator cannot check (or an unobserved target) is refused with invalid_args, never dispatched', async () => {
    expect(await step('chat', { message: 'hi' }, { effects: ['chat:echoed'] })).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'invalid_args' } });
    expect(await step('chat', { message: 'hi' }, { preconds: ['air:<target>'] })).toMatchObject({ status: 'failed', attempts: 0, failure: { code: 'invalid_args' } });
  });

  it('reads mobs in sight, the biome and the height of the feet: seen_mob, in_biome, below_y (what explore and mine declare)', async () => {
    const { server, bot } = world;
    const feet = Math.floor(bot.entity.position.y);
    expect(await step('chat', { message: 'here' }, { preconds: [`y:<=${feet}`, 'in_biome:plains'] })).toMatchObject({ status: 'succeeded' });
    expect(await step('chat', { message: 'high' }, { preconds: [`y:<=${feet - 1}`] })).toMatchObject({ status: 'failed', failure: { code: 'precond_missing', missing: [`y:<=${feet - 1}`] } });
    expect(await step('chat', { message: 'dry' }, { preconds: ['in_biome:desert'] })).toMatchObject({ status: 'failed', failure: { code: 'precond_missing', missing: ['in_biome:desert'] } });
    expect(await step('chat', { message: 'alone' }, { preconds: ['seen_mob:cow'] })).toMatchObject({ status: 'failed', failure: { code: 'precond_missing', missing: ['seen_mob:cow'] } });
    const cow = await spawnMob(server, 'cow', server.spawn.offset(5, 0, 3));
    await vi.waitFor(() => expect(Object.values(bot.entities).some((e) => e.id === cow.id)).toBe(true), { timeout: 10_000 });
    expect(await step('chat', { message: 'moo' }, { preconds: ['seen_mob:cow'] })).toMatchObject({ status: 'succeeded' });
    expect(minecraftPredicates.holds({ kind: 'seen_mob', mob: 'sheep' }, bot, undefined)).toBe(false);
  });
});
