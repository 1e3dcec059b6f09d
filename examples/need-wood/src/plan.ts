import type { Intent, PlanInput } from '@sinew/executor-contracts';
import type { WorldSnapshot } from '@sinew/capabilities';

/** What a plan source gets: the intent and the world as the bot sees it. */
export interface PlanRequest {
  readonly intent: Intent;
  readonly world: WorldSnapshot;
}

/** Where plans come from. The demo's is fixed; a planner (router → HTN with repair) slots in here. */
export type PlanSource = (request: PlanRequest) => Promise<PlanInput>;

/** The demo's intent: the worked example's "tools low, wood needed". */
export const NEED_WOOD: Intent = {
  id: 'need-wood',
  source: 'system',
  goal: 'AcquireWoodenPickaxe',
  context: { need: 'tools low, wood needed' },
  urgency: 0.6,
  safety: { allowed: true },
  traits: ['multi_step'],
};

/**
 * The fixed plan of the worked example: 3 logs → 12 planks → 4 sticks → crafting table → place it →
 * wooden pickaxe (3 planks + 2 sticks at the table).
 */
export const fixedNeedWoodPlan: PlanSource = async ({ intent }) => ({
  planId: `need-wood-${Date.now().toString(36)}`,
  intentId: intent.id,
  planner: 'fixed',
  steps: [
    { stepId: 'gather-logs', type: 'gather', args: { block: 'oak_log', count: 3 } },
    { stepId: 'craft-planks', type: 'craft_item', args: { item: 'oak_planks', count: 12 } },
    { stepId: 'craft-sticks', type: 'craft_item', args: { item: 'stick', count: 4 } },
    { stepId: 'craft-table', type: 'craft_item', args: { item: 'crafting_table', count: 1 } },
    { stepId: 'place-table', type: 'place_block', args: { item: 'crafting_table' } },
    { stepId: 'craft-pickaxe', type: 'craft_item', args: { item: 'wooden_pickaxe', count: 1 } },
  ],
});
