import { Vec3 } from 'vec3';
import { TestkitError } from './errors.js';
import { spawnMobEntity, type MobBehavior } from './extensions/mobs.js';
import { embedded, stateOf, type TestServer } from './server.js';
import type { SquidEntity } from './squid/types.js';
import { syncAll } from './sync.js';
import type { Position } from './world.js';

export type { MobBehavior } from './extensions/mobs.js';

/** A mob spawned by {@link spawnMob}; `id` is the entity id bots see (`bot.entities[id]`). */
export interface SpawnedMob {
  id: number;
  kind: string;
  /** The server-side entity (null on an external server). */
  entity: SquidEntity | null;
}

/**
 * Spawns a mob at a position. Hostile kinds (zombie, skeleton, spider, …) walk to the nearest
 * survival player within 16 blocks and hit it every second; others stand still.
 */
export async function spawnMob(server: TestServer, kind: string, pos: Position, behavior: Partial<MobBehavior> = {}): Promise<SpawnedMob> {
  const name = kind.replace(/^minecraft:/, '');
  const state = stateOf(server);
  if (state.external) {
    await state.external.command(`summon minecraft:${name} ${pos.x} ${pos.y} ${pos.z}`);
    return { id: -1, kind: name, entity: null };
  }
  const { serv } = embedded(server, 'spawnMob');
  const entity = spawnMobEntity(serv, name, new Vec3(pos.x, pos.y, pos.z), behavior);
  if (!entity) throw new TestkitError('unknown_mob', `no mob named ${JSON.stringify(kind)}`);
  await syncAll(serv);
  return { id: entity.id, kind: name, entity };
}
