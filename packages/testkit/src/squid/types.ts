import type { EventEmitter } from 'node:events';
import type { IndexedData } from 'minecraft-data';
import type { Vec3 } from 'vec3';

// The parts of flying-squid (untyped JS) the testkit touches, typed once here.

/** A prismarine item as flying-squid stores it in a window slot. */
export interface SquidItem {
  type: number;
  count: number;
  name: string;
  stackSize: number;
  slot: number;
  metadata: number;
  nbt: unknown;
}

/** A prismarine-windows window held by the server. */
export interface SquidWindow extends EventEmitter {
  id: number;
  type: string;
  slots: (SquidItem | null)[];
  selectedItem: SquidItem | null;
  inventoryStart: number;
  inventoryEnd: number;
  hotbarStart: number;
  craftingResultSlot: number;
  updateSlot(slot: number, item: SquidItem | null): void;
  acceptClick(click: { mode: number; mouseButton: number; slot: number; item: SquidItem | null }): unknown;
  firstEmptyInventorySlot(hotbarFirst?: boolean): number | null;
  firstEmptySlotRange(start: number, end: number): number | null;
}

/** A chunked world (prismarine-world). */
export interface SquidWorld {
  getBlockStateId(pos: Vec3): Promise<number>;
  getBlockType(pos: Vec3): Promise<number>;
  setBlockStateId(pos: Vec3, stateId: number): Promise<void>;
  getColumn(chunkX: number, chunkZ: number): Promise<unknown>;
  stopSaving?(): void;
}

/** The protocol connection of one player (minecraft-protocol server client). */
export interface SquidClient extends EventEmitter {
  write(name: string, params: Record<string, unknown>): void;
  end(reason?: string): void;
  username: string;
  uuid: string;
  latency: number;
  socket?: { destroy(): void; remoteAddress?: string };
}

/** Any entity the server tracks (player, mob, object). */
export interface SquidEntity extends EventEmitter {
  id: number;
  type: 'player' | 'mob' | 'object';
  entityType: number | null;
  name?: string;
  uuid: string;
  world: SquidWorld;
  position: Vec3;
  velocity?: Vec3;
  size?: Vec3 | undefined;
  yaw: number;
  pitch: number;
  headPitch?: number;
  onGround?: boolean;
  health: number;
  metadata: unknown[];
  nearbyEntities: SquidEntity[];
  sendPosition(position: Vec3, onGround: boolean, teleport?: boolean): Promise<unknown>;
  takeDamage(opts: { damage: number; velocity?: Vec3; sound?: string; animation?: boolean }): void;
  updateAndSpawn(): void;
  destroy(): void;
  getNearby(): SquidEntity[];
  _writeOthersNearby(name: string, params: Record<string, unknown>): void;
  _writeOthers(name: string, params: Record<string, unknown>): void;
  updateHealth(health: number): void;
}

/** A connected player as flying-squid models it. */
export interface SquidPlayer extends SquidEntity {
  type: 'player';
  username: string;
  _client: SquidClient;
  inventory: SquidWindow;
  heldItemSlot: number;
  gameMode: number;
  prevGameMode: number;
  food: number;
  foodSaturation: number;
  spawnPoint: Vec3;
  profileProperties: unknown[];
  disconnected?: boolean;
  loadedChunks: Record<string, number>;
  login(): Promise<void>;
  updateFood(food: number): void;
  updateFoodSaturation(saturation: number): void;
  sendSelfPosition(position?: Vec3): void;
  setGameMode(mode: number): void;
  sendChunk(chunkX: number, chunkZ: number, column: unknown): Promise<unknown>;
  kick(reason?: string): void;
}

/** The flying-squid server object (`serv`) behind a started test server. */
export interface SquidServer extends EventEmitter {
  registry: IndexedData;
  players: SquidPlayer[];
  entities: Record<number, SquidEntity>;
  overworld: SquidWorld;
  netherworld: SquidWorld;
  hashedSeed: [number, number];
  difficulty: number;
  tickCount: number;
  /** World time in ticks (the /time command sets it). */
  time: number;
  isReady?: boolean;
  _server: EventEmitter & { socketServer?: { address(): unknown } };
  supportFeature(feature: string): boolean;
  getPlayer(username: string): SquidPlayer | null;
  getNearbyEntities(query: { world: SquidWorld; position: Vec3; radius?: number }): SquidEntity[];
  initEntity(type: string, entityType: number | null, world: SquidWorld, position: Vec3): SquidEntity;
  spawnObject(type: number, world: SquidWorld, position: Vec3, options: { velocity?: Vec3; itemId?: number; itemCount?: number; pickupTime?: number; deathTime?: number }): SquidEntity;
  setBlock(world: SquidWorld, position: Vec3, stateId: number): Promise<void>;
  onBlockInteraction(blockName: string, handler: (data: { block: { position: Vec3 }; player: SquidPlayer }) => boolean | Promise<boolean>): void;
  getSpawnPoint(world: SquidWorld): Promise<Vec3>;
  stopTickInterval(): void;
  destroy(): Promise<unknown>;
  _writeAll(name: string, params: Record<string, unknown>): void;
  _sendPlayerList(toPlayer: SquidPlayer): void;
  log: (message: string) => void;
  info: (message: string) => void;
  warn: (message: string) => void;
  err: (message: string) => void;
}
