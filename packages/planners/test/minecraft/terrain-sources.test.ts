// The generated world's blocks against the planners' list of its sources: wood the trees are made of, a flower or an
// ore the generator places and no source lists is an item the planner calls sourceless (a `no_source` plan).
import { TERRAIN_BLOCKS } from '@sinew/testkit';
import { expect, it } from 'vitest';
import { itemSources, OVERWORLD, recipeBook } from '../../src/minecraft/index.js';
import { wildRegistry } from './wild-verbs.js';

const book = recipeBook();
const verbs = wildRegistry().verbs();

it('OVERWORLD has a gather or mine source for every block the terrain generator writes that drops an item (its logs, flowers, ores)', () => {
  const context = { world: OVERWORLD, verbs: new Set(verbs), sourced: () => true };
  // Nothing to take (fluids, air, bedrock), or a drop left to chance (saplings and apples from leaves, seeds from grass).
  const takesNothing = (name: string) => ['air', 'water', 'lava', 'bedrock', 'short_grass'].includes(name) || name.endsWith('_leaves');
  const unsourced = TERRAIN_BLOCKS.filter((name) => !takesNothing(name)).filter((name) => {
    const drop = book.dropOf(name);
    return !itemSources(book, drop, context).some((source) => (source.verb === 'gather' || source.verb === 'mine') && book.dropOf(source.block) === drop);
  });
  expect(unsourced).toEqual([]);
});
