// A plan's need counted as held may be more than a stack: the HTN asks `mine` for the whole need with
// `counting: 'held'`, and the real capability's schema (not a declaration-only stand-in) must take it.
import { createStandardRegistry } from '@sinew/capabilities';
import { IntentSchema, type PlanStep } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import type { PlannerWorld } from '../../src/index.js';
import { createMinecraftHtn, OVERWORLD } from '../../src/minecraft/index.js';

const registry = createStandardRegistry();
const mine = registry.get('mine')!;

/** Where the plan starts: a pickaxe and some cobblestone already held, no stone in view. */
const world = (inventory: Record<string, number>): PlannerWorld => ({
  position: { x: 8.5, y: 64, z: -3.5 },
  health: 17,
  food: 12,
  heldItem: 'stone_pickaxe',
  inventory,
  blocks: { '9,63,-3': 'grass_block', '2,64,7': 'oak_log' },
});

const obtain = (item: string, count: number, inventory: Record<string, number>) =>
  createMinecraftHtn({ registry, world: OVERWORLD, verbs: registry.verbs() }).plan(
    IntentSchema.parse({ id: `need-${count}`, source: 'user', goal: `obtain ${item}`, context: { count }, urgency: 0.4 }),
    world(inventory),
  );

describe("mine's count: a stack gained, the whole inventory held", () => {
  it('plans 150 cobblestone held (40 already in the bag) as one mine of 150 held, every step taken by its real schema', () => {
    const result = obtain('cobblestone', 150, { stone_pickaxe: 1, cobblestone: 40, torch: 3 });
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const steps: readonly PlanStep[] = result.ok ? result.plan.steps : [];
    const mines = steps.filter((step) => step.type === 'mine');
    expect(mines.map((step) => step.args)).toEqual([expect.objectContaining({ target: { ore: 'stone' }, count: 150, counting: 'held' })]);
    for (const step of steps) expect(registry.get(step.type)!.inputSchema.safeParse(step.args).error).toBeUndefined();
  });

  it('refuses a gain above a stack, naming count and the way to ask for more; refuses a held need past what the inventory holds', () => {
    const gained = mine.inputSchema.safeParse({ target: { ore: 'iron' }, count: 65 });
    expect(gained.error?.issues).toEqual([expect.objectContaining({ path: ['count'], message: expect.stringContaining("counting: 'held'") })]);
    expect(mine.inputSchema.safeParse({ target: { ore: 'iron' }, count: 64 }).success).toBe(true);
    expect(mine.inputSchema.safeParse({ target: { ore: 'coal', depth: 12 }, count: 2_304, counting: 'held' }).success).toBe(true);
    const tooMany = mine.inputSchema.safeParse({ target: { ore: 'coal' }, count: 2_305, counting: 'held' });
    expect(tooMany.error?.issues).toEqual([expect.objectContaining({ path: ['count'], code: 'too_big' })]);
  });
});
