import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { heldTypeAtFinish, onDigFinish } from './dug.js';

/**
 * The vanilla harvest-tool rule: a block whose minecraft-data entry lists `harvestTools` drops
 * nothing unless one of them is held (stone or coal ore by hand, iron ore with a wooden pickaxe);
 * the block still breaks. flying-squid dropped the loot whatever was held.
 */
export function installHarvest(ctx: ExtensionContext): void {
  ctx.serv.on('newPlayer', (player: SquidPlayer) => {
    onDigFinish(player, ({ position, block, drops }) => {
      if (!block.harvestTools) return;
      const held = heldTypeAtFinish(player, position);
      if (held === null || !block.harvestTools[held]) drops.length = 0;
    });
  });
}
