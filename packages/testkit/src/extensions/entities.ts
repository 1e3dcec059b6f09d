import { Vec3 } from 'vec3';
import type { SquidEntity, SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { createItem, toNotch } from './items.js';

/** Index of the item stack in an item entity's metadata (after the 8 base entity fields) on 1.20.x. */
const ITEM_STACK_KEY = 8;
/** Index of a sheep's wool byte (colour in the low 4 bits, 0x10 sheared) on 1.20.x. */
const SHEEP_WOOL_KEY = 17;

/**
 * Vanilla removes an entity 64 blocks below the world's bottom (1.20 overworld: y -64). flying-squid
 * never does: an item that tunnels through the floor on a late tick (its physics scale by wall-clock
 * delta) drifts through the void until its 5-minute death time, loading a chunk column every block.
 */
const BELOW_WORLD_Y = -64 - 64;
/** Longest step (s) of flying-squid's wall-clock physics: vanilla steps 50 ms per tick however late it runs. */
const MAX_PHYSICS_STEP = 0.1;

type EntityWrite = (name: string, params: Record<string, unknown>) => void;

/**
 * Drops an entity's packets once the server has removed it: flying-squid's physics tick awaits block
 * reads and then sends `rel_entity_move` for an item picked up meanwhile, and mineflayer's fetchEntity
 * turns any packet after `entity_destroy` into a typeless placeholder it never removes (a client leak).
 */
function silenceOnceGone(serv: SquidServer, entity: SquidEntity): void {
  const writes = entity as unknown as Record<'_writeOthersNearby' | '_writeNearby', EntityWrite>;
  for (const method of ['_writeOthersNearby', '_writeNearby'] as const) {
    const write = writes[method];
    writes[method] = (name, params) => {
      if (serv.entities[entity.id] === entity) write(name, params);
    };
  }
}

/**
 * Entity packets the 1.20.4 client can read: dropped items carry their item stack (flying-squid
 * skips entity metadata on 1.20.2+, so a bot could not tell a log from a sapling), and velocity
 * stays on the server (mineflayer 4.25 reads entity_velocity as velocityX/Y/Z while 1.20.4
 * decodes one `velocity` field, which turns the entity's position into NaN), and a removed
 * non-player entity sends nothing after its `entity_destroy`; non-players below the world are removed.
 */
export function installEntities(ctx: ExtensionContext): void {
  const { serv } = ctx;
  // The player a spawn packet is being written to: the item stack that follows goes to that player only.
  let spawningFor: SquidPlayer | undefined;
  serv.on('newPlayer', (player: SquidPlayer & { spawnEntity(entity: SquidEntity): void }) => {
    const spawnEntity = player.spawnEntity;
    player.spawnEntity = (entity) => {
      spawningFor = player;
      try {
        spawnEntity(entity);
      } finally {
        spawningFor = undefined;
      }
    };
  });
  serv.on('tick', () => {
    for (const entity of Object.values(serv.entities)) {
      if (entity.type !== 'player' && entity.position.y < BELOW_WORLD_Y) entity.destroy();
    }
  });
  serv.on('newEntity', (entity: SquidEntity & { itemId?: number; itemCount?: number; woolColor?: number }) => {
    if (entity.type !== 'player') silenceOnceGone(serv, entity);
    // A late tick (a loaded event loop) otherwise scales gravity past the floor and the drop falls through it.
    const physics = entity as unknown as { calculatePhysics: (delta: number) => Promise<unknown> };
    const calculate = physics.calculatePhysics;
    physics.calculatePhysics = (delta) => calculate(Math.min(delta, MAX_PHYSICS_STEP));
    const mutable = entity as unknown as {
      sendVelocity: (v: Vec3, max?: Vec3) => void;
      sendMetadata: (data: unknown) => void;
    };
    mutable.sendVelocity = (v, max = new Vec3(4, 4, 4)) => {
      if (entity.type === 'player') return;
      const current = entity.velocity ?? new Vec3(0, 0, 0);
      const clamp = (c: number, add: number, m: number): number => Math.max(-m, Math.min(m, c + add));
      entity.velocity = new Vec3(clamp(current.x, v.x, max.x), clamp(current.y, v.y, max.y), clamp(current.z, v.z, max.z));
    };
    mutable.sendMetadata = () => {
      let metadata: { key: number; type: string; value: unknown }[];
      if (entity.itemId !== undefined) {
        metadata = [{ key: ITEM_STACK_KEY, type: 'item_stack', value: toNotch(serv, createItem(serv, entity.itemId, entity.itemCount ?? 1)) }];
      } else if (entity.woolColor !== undefined) metadata = [{ key: SHEEP_WOOL_KEY, type: 'byte', value: entity.woolColor }];
      else return;
      const packet = { entityId: entity.id, metadata };
      // flying-squid sends metadata from each player's spawnEntity: to everyone nearby, it reached players before their spawn packet.
      if (spawningFor) spawningFor._client.write('entity_metadata', packet);
      else entity._writeOthersNearby('entity_metadata', packet);
    };
  });
}
