import { describe, expect, it } from 'vitest';
import { createBeliefBus } from '@sinew/belief';
import { createNeedsPlanner, withBeliefThreats, type PlannerWorld } from '../src/index.js';

const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: { stone_pickaxe: 1 }, blocks: {}, time: 6000 };

/** A real Belief Bus fed `ticks` ticks of a zombie and a cow standing still. */
function busWith(zombieAt: number, ticks = 6) {
  const bus = createBeliefBus();
  for (let tick = 1; tick <= ticks; tick += 1) {
    const result = bus.ingest(tick, {
      observer: { x: 0, y: 64, z: 0 },
      items: [
        { cls: 'zombie', hostile: true, hint: '7', position: { x: zombieAt, y: 64, z: 0 } },
        { cls: 'cow', hostile: false, hint: '8', position: { x: -3, y: 64, z: 0 } },
      ],
    });
    if (!result.ok) throw new Error(result.error.message);
  }
  return bus;
}

describe('belief threats in planning (issue 15 item 4)', () => {
  it('fills PlannerWorld.threats from the belief tracks: hostile only, nearest first', () => {
    const filled = withBeliefThreats(world, busWith(5).threats());
    expect(filled.threats).toHaveLength(1);
    expect(filled.threats![0]).toMatchObject({ entity: 'zombie', distance: expect.closeTo(5, 0) });
  });

  it("the needs planner's safety need fires from a zombie the belief layer tracks, and not without it", () => {
    const planner = createNeedsPlanner({ seed: 7 });
    const calm = planner.decide(world);
    expect(calm.intent.goal).not.toMatch(/flee/);
    const threatened = planner.decide(withBeliefThreats(world, busWith(5).threats()));
    expect(threatened.intent.goal).toBe('flee zombie');
    expect(threatened.result.ok && threatened.result.plan.steps[0]!.type).toBe('flee');
    // beyond the planner's threat distance the track is reported but no safety need fires
    const far = planner.decide(withBeliefThreats(world, busWith(20).threats()));
    expect(far.intent.goal).not.toMatch(/flee/);
  });
});
