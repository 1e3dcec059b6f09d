import { IntentSchema, type Intent } from '@sinew/executor-contracts';
import { placeTree, techTreeWorld, type TestServer } from '@sinew/testkit';
import type { SinewBot } from '@sinew/capabilities';
import { z } from 'zod';

/** The pickaxes of the tech tree, in order: the milestones every run records. */
export const PICKAXES = ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'diamond_pickaxe'] as const;

/** Where the demo plays: `placed` (three trees, or the seeded tech_tree world beyond wood) or `terrain` (a generated world). */
export const WorldKindSchema = z.enum(['placed', 'terrain']);
export type WorldKind = z.infer<typeof WorldKindSchema>;

/** When a pickaxe first showed up in the inventory: wall time and server ticks since the plan started. */
export interface Milestone {
  readonly item: (typeof PICKAXES)[number];
  readonly ms: number;
  readonly ticks: number;
}

// Trees a few blocks from spawn, so "gather logs" has to find, walk, dig and collect.
const TREES = [
  { x: 6, z: 3 },
  { x: -5, z: 7 },
  { x: 4, z: -8 },
] as const;

/** Builds the goal's world: three oak trees for the wooden pickaxe, the seeded `techTreeWorld` (trees + ore outcrop) beyond it. */
export async function buildWorld(server: TestServer, goal: string, seed: number): Promise<string> {
  if (goal === 'wooden_pickaxe') {
    for (const { x, z } of TREES) await placeTree(server, server.spawn.offset(x, 0, z).floored(), { kind: 'oak', height: 5 });
    return `${TREES.length} oak trees`;
  }
  const world = await techTreeWorld(server, { seed });
  return `tech_tree seed ${seed}: ${world.trees.length} oak trees, an outcrop with ${world.outcrop.coal.length} coal and ${world.outcrop.iron.length} iron ore`;
}

/**
 * The needs planner names the need; the goal says what to make: its own "need wood" story for one wooden pickaxe from
 * nothing, else `obtain <goal>` with the count.
 */
export function intentFor(needed: Intent, goal: string, count = 1): Intent {
  if (goal === 'wooden_pickaxe' && count === 1 && needed.goal === 'need wood') return needed;
  return IntentSchema.parse({ ...needed, goal: `obtain ${goal}`, context: { ...needed.context, tool: goal, count } });
}

/** Records when each pickaxe first appears in the bot's inventory; `stop()` detaches. */
export function trackMilestones(bot: SinewBot, server: TestServer): { milestones: Milestone[]; stop(): void } {
  const milestones: Milestone[] = [];
  const startedAt = Date.now();
  const startTick = server.serv?.tickCount ?? 0;
  const check = () => {
    for (const item of PICKAXES) {
      if (milestones.some((m) => m.item === item) || !bot.inventory.items().some((stack) => stack.name === item)) continue;
      milestones.push({ item, ms: Date.now() - startedAt, ticks: (server.serv?.tickCount ?? 0) - startTick });
    }
  };
  bot.inventory.on('updateSlot', check);
  return { milestones, stop: () => void bot.inventory.removeListener('updateSlot', check) };
}
