import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BeliefSource } from '../http/routes.js';
import type { ViewerState } from './control.js';
import { cameraFor, hazardBoxes, overlaysFor, trackPoints, type Point3, type Primitive, type SceneFacts } from './overlays.js';
import { pointOf } from './map.js';
import type { PeerSocket, PeerTransport, PeerWorldView, ViewerPeer } from './peer.js';

/** What the 3D view reads of the bot (a mineflayer Bot fits). */
export interface SceneBot {
  readonly version: string;
  readonly username: string;
  /** prismarine-world's world, handed to the peer's WorldView as is. */
  readonly world: unknown;
  readonly entity?: { readonly id: number; readonly position: Point3; readonly yaw: number; readonly pitch: number; readonly height?: number; readonly width?: number } | null;
  readonly targetDigBlock?: { readonly position?: Point3 } | null;
  readonly pathfinder?: { readonly goal?: { readonly x?: unknown; readonly y?: unknown; readonly z?: unknown } | null };
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** The socket.io path of the 3D page (the peer's page connects to `<its path>socket.io`). */
export const SCENE_SOCKET_PATH = '/viewer/socket.io';
/** Overlays and the camera are re-read this often while a page is open. */
const TICK_MS = 200;

/**
 * The 3D view of one bot: prismarine-viewer's page on this server's port. Each page gets the chunk columns
 * around the view's anchor (the bot, or the fixed centre), the block updates and entities, the camera for the
 * view's mode, and the overlays (target, dug block, goal, path, belief tracks, hazards) as they change.
 */
export class ViewerScene {
  readonly #transport: PeerTransport;
  readonly #pages = new Map<PeerSocket, PeerWorldView>();
  /** The overlays every open page draws, as sent (id → JSON). */
  #drawn = new Map<string, string>();
  #path: Point3[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #listeners: [string, (...args: unknown[]) => void][];

  constructor(private readonly input: { peer: ViewerPeer; bot: SceneBot; viewer: ViewerState; belief?: BeliefSource; allowRequest: (request: IncomingMessage) => boolean; maxClients: number }) {
    this.#transport = input.peer.createTransport({ path: SCENE_SOCKET_PATH, allowRequest: input.allowRequest, maxClients: input.maxClients });
    this.#transport.onConnection((socket) => this.#open(socket));
    const clearPath = () => (this.#path = []);
    this.#listeners = [
      ['move', () => this.#sendCamera()],
      ['path_update', (result) => (this.#path = pathOf(result))],
      ['goal_reached', clearPath],
      ['path_reset', clearPath],
      ['path_stop', clearPath],
    ];
    for (const [event, listener] of this.#listeners) input.bot.on(event, listener);
  }

  handleRequest(request: IncomingMessage, response: ServerResponse): void {
    this.#transport.handleRequest(request, response);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#transport.handleUpgrade(request, socket, head);
  }

  close(): void {
    clearInterval(this.#timer);
    for (const [event, listener] of this.#listeners) this.input.bot.removeListener(event, listener);
    for (const [socket, view] of this.#pages) this.#forget(socket, view);
    this.#transport.close();
  }

  #open(socket: PeerSocket): void {
    const { bot, peer } = this.input;
    const anchor = this.#anchor();
    if (!anchor) return socket.disconnect(true);
    socket.emit('version', bot.version);
    const view = peer.createWorldView(bot.world, this.#viewDistance(), anchor, socket);
    this.#pages.set(socket, view);
    void view.init(anchor);
    view.listenToBot(bot);
    for (const json of this.#drawn.values()) socket.emit('primitive', JSON.parse(json));
    socket.on('disconnect', () => this.#forget(socket, view));
    this.#sendCamera();
    this.#timer ??= setInterval(() => this.#tick(), TICK_MS);
  }

  #forget(socket: PeerSocket, view: PeerWorldView): void {
    if (!this.#pages.delete(socket)) return;
    view.removeListenersFromBot(this.input.bot);
    socket.disconnect(true);
    if (this.#pages.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** The bot's position, or the fixed centre of the view. */
  #anchor(): Point3 | undefined {
    const { control } = this.input.viewer;
    if (control.mode === 'fixed' && control.center) return { x: control.center.x + 0.5, y: control.center.y, z: control.center.z + 0.5 };
    return this.input.bot.entity?.position;
  }

  /** Chunk columns loaded around the anchor: enough to cover the view's radius. */
  #viewDistance(): number {
    return Math.ceil(this.input.viewer.control.radius / 16) + 1;
  }

  #sendCamera(): void {
    const entity = this.input.bot.entity;
    const anchor = this.#anchor();
    if (!entity || !anchor || this.#pages.size === 0) return;
    const { camera } = this.input.viewer.control;
    const pose = cameraFor(camera, anchor, entity);
    // The bot is drawn as a player except through its own eyes.
    const self = camera === 'first_person' ? { id: entity.id, delete: true } : { id: entity.id, name: 'player', username: this.input.bot.username, pos: entity.position, yaw: entity.yaw, pitch: entity.pitch, width: entity.width ?? 0.6, height: entity.height ?? 1.8 };
    for (const [socket, view] of this.#pages) {
      socket.emit('position', pose);
      socket.emit('entity', self);
      void view.updatePosition(anchor);
    }
  }

  #tick(): void {
    this.#sendCamera();
    const next = new Map(overlaysFor(this.#facts()).map((primitive): [string, string] => [primitive.id, JSON.stringify(primitive)]));
    const changes: (Primitive | { id: string })[] = [];
    for (const [id, json] of next) if (this.#drawn.get(id) !== json) changes.push(JSON.parse(json) as Primitive);
    // A primitive message with only an id erases that shape.
    for (const id of this.#drawn.keys()) if (!next.has(id)) changes.push({ id });
    this.#drawn = next;
    for (const change of changes) for (const socket of this.#pages.keys()) socket.emit('primitive', change);
  }

  #facts(): SceneFacts {
    const { bot, viewer, belief } = this.input;
    const goal = bot.pathfinder?.goal;
    return {
      control: viewer.control,
      digging: pointOf(bot.targetDigBlock?.position),
      goal: pointOf(goal),
      path: goal ? this.#path : [],
      tracks: trackPoints(belief?.tracks() ?? []),
      hazards: hazardBoxes(belief?.hazards()),
    };
  }
}

/** mineflayer-pathfinder's `path_update` result: the moves' block positions. */
function pathOf(result: unknown): Point3[] {
  const path = (result as { path?: unknown } | undefined)?.path;
  if (!Array.isArray(path)) return [];
  return path.flatMap((move) => {
    const point = pointOf(move as Partial<Point3>);
    return point ? [point] : [];
  });
}
