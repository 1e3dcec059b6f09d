import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { blockHazard, cellsToOpen, DIRECTIONS, stepHazard, type BlockReader } from '../src/body/staircase.js';

/** A world of stone with some blocks set: what a hazard check reads, nothing else. */
function world(blocks: Record<string, string>): BlockReader {
  return (p) => {
    const name = blocks[`${p.x},${p.y},${p.z}`] ?? 'stone';
    return { name, boundingBox: ['air', 'cave_air', 'water', 'lava', 'torch'].includes(name) ? 'empty' : 'block' };
  };
}

const feet = new Vec3(0, 10, 0);
const east = DIRECTIONS[0]!;
const stairEast = cellsToOpen(feet, east, true);

describe('the hazards a mining step reads before it digs', () => {
  it('a stair opens three cells one block ahead (head, feet, below) and lands one lower: never straight down', () => {
    expect(stairEast.cells.map(String)).toEqual(['(1, 11, 0)', '(1, 10, 0)', '(1, 9, 0)']);
    expect(stairEast.next.toString()).toBe('(1, 9, 0)');
    expect(stairEast.standOn.toString()).toBe('(1, 8, 0)');
    for (const direction of DIRECTIONS) for (const cell of cellsToOpen(feet, direction, true).cells) expect(cell.x !== feet.x || cell.z !== feet.z).toBe(true);
    const level = cellsToOpen(feet, east, false);
    expect([level.cells.map(String), level.next.toString()]).toEqual([['(1, 11, 0)', '(1, 10, 0)'], '(1, 10, 0)']);
  });

  it('a crafting table or furnace in a cell is kept (the plan placed it to work at): a station hazard, not a dig', () => {
    expect(stepHazard(world({ '1,10,0': 'crafting_table' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'station', block: 'crafting_table', at: new Vec3(1, 10, 0) });
    expect(stepHazard(world({ '1,11,0': 'furnace' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'station', block: 'furnace' });
    // Beside the cells it stays where it is and the step is safe.
    expect(stepHazard(world({ '1,10,1': 'crafting_table' }), stairEast.cells, stairEast.standOn)).toBeUndefined();
  });

  it('solid rock all round is safe', () => {
    expect(stepHazard(world({}), stairEast.cells, stairEast.standOn)).toBeUndefined();
  });

  it('lava behind a cell wall, water above, lava in a cell: a fluid hazard naming where', () => {
    expect(stepHazard(world({ '2,10,0': 'lava' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'fluid', block: 'lava', at: new Vec3(2, 10, 0) });
    expect(stepHazard(world({ '1,12,0': 'water' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'fluid', block: 'water' });
    expect(stepHazard(world({ '1,9,1': 'lava' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'fluid', at: new Vec3(1, 9, 1) });
  });

  it('gravel resting on the top cell, a cave under the landing, bedrock in the way, unloaded ground', () => {
    // Gravel over the head cell would pour in: the fluid check does not see it, the falling-block one does.
    expect(stepHazard(world({ '1,12,0': 'gravel' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'falling_block', block: 'gravel' });
    expect(stepHazard(world({ '1,8,0': 'cave_air' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'fall', at: new Vec3(1, 8, 0) });
    expect(stepHazard(world({ '1,9,0': 'bedrock' }), stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'unbreakable' });
    const unloaded: BlockReader = (p) => (p.x === 1 && p.y === 10 ? null : { name: 'stone', boundingBox: 'block' });
    expect(stepHazard(unloaded, stairEast.cells, stairEast.standOn)).toMatchObject({ kind: 'unloaded' });
  });

  it('the air the bot stands in next to the cells is no hazard; an ore with water beside it is', () => {
    const stood = world({ '0,10,0': 'air', '0,11,0': 'air' });
    expect(stepHazard(stood, stairEast.cells, stairEast.standOn)).toBeUndefined();
    expect(blockHazard(world({ '5,5,6': 'water' }), new Vec3(5, 5, 5))).toMatchObject({ kind: 'fluid' });
    expect(blockHazard(world({}), new Vec3(5, 5, 5))).toBeUndefined();
  });
});
