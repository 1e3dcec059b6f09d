import { IntentSchema, type Intent } from '@sinew/executor-contracts';
import { placeTree, techTreeWorld, type TestServer } from '@sinew/testkit';
import type { SinewBot } from '@sinew/capabilities';
import { z } from 'zod';

/** The pickaxes the demo can be asked for (`--goal`), in tech-tree order. */
export const DemoGoalSchema = z.enum(['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe']);
export type DemoGoal = z.infer<typeof DemoGoalSchema>;

/** When a pickaxe first showed up in the inventory: wall time and server ticks since the plan started. */
export interface Milestone {
  readonly item: DemoGoal;
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
export async function buildWorld(server: TestServer, goal: DemoGoal, seed: number): Promise<string> {
  if (goal === 'wooden_pickaxe') {
    for (const { x, z } of TREES) await placeTree(server, server.spawn.offset(x, 0, z).floored(), { kind: 'oak', height: 5 });
    return `${TREES.length} oak trees`;
  }
  const world = await techTreeWorld(server, { seed });
  return `tech_tree seed ${seed}: ${world.trees.length} oak trees, an outcrop with ${world.outcrop.coal.length} coal and ${world.outcrop.iron.length} iron ore`;
}

/** The needs planner names the need (tools); the goal says which pickaxe: `craft <goal>` beyond the wooden one. */
export function intentFor(needed: Intent, goal: DemoGoal): Intent {
  if (goal === 'wooden_pickaxe') return needed;
  return IntentSchema.parse({ ...needed, goal: `craft ${goal}`, context: { ...needed.context, tool: goal } });
}

/** Records when each pickaxe first appears in the bot's inventory; `stop()` detaches. */
export function trackMilestones(bot: SinewBot, server: TestServer): { milestones: Milestone[]; stop(): void } {
  const milestones: Milestone[] = [];
  const startedAt = Date.now();
  const startTick = server.serv?.tickCount ?? 0;
  const check = () => {
    for (const item of DemoGoalSchema.options) {
      if (milestones.some((m) => m.item === item) || !bot.inventory.items().some((stack) => stack.name === item)) continue;
      milestones.push({ item, ms: Date.now() - startedAt, ticks: (server.serv?.tickCount ?? 0) - startTick });
    }
  };
  bot.inventory.on('updateSlot', check);
  return { milestones, stop: () => void bot.inventory.removeListener('updateSlot', check) };
}
