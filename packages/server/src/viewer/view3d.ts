import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { createToken, tokenMatches } from '../auth.js';
import type { BeliefSource } from '../http/routes.js';
import { ApiError } from '../http/reply.js';
import type { ViewerState } from './control.js';
import { loadViewerPeer, type ViewerPeerResult } from './peer.js';
import { SCENE_SOCKET_PATH, ViewerScene, type SceneBot } from './scene.js';

/** The cookie a page shows to open the 3D view's socket: minted by `POST /api/viewer/session` for a token holder. */
const COOKIE = 'sinew_viewer';
const TYPES: Readonly<Record<string, string>> = { '.js': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8', '.png': 'image/png' };
/** Only these folders of the peer's `public/` are served (its page script, the mesher worker, textures, block states). */
const PEER_FILE = /^\/viewer\/(index\.js|worker\.js|(textures|blocksStates)\/[A-Za-z0-9_./-]+\.(png|json))$/;

/**
 * The 3D view behind the server's auth: the peer's page and assets under `/viewer/`, and its socket, which
 * only a page holding the session cookie may open (a browser cannot set a bearer header on socket.io).
 */
export class View3d {
  readonly #sessionKey = createToken();
  readonly #scene: ViewerScene | undefined;
  readonly #peer: ViewerPeerResult;
  readonly #unavailable: string | undefined;

  constructor(input: { bot: unknown; viewer: ViewerState; belief?: BeliefSource; maxClients: number; load?: () => ViewerPeerResult }) {
    this.#peer = (input.load ?? loadViewerPeer)();
    const bot = sceneBot(input.bot);
    if (!this.#peer.ok) this.#unavailable = this.#peer.message;
    else if (!bot) this.#unavailable = 'serveSinew was given no bot with a world (a mineflayer Bot): there is no world to draw';
    else if (this.#peer.peer.textureVersion(bot.version) === null) this.#unavailable = `prismarine-viewer ${this.#peer.peer.version} cannot draw Minecraft ${bot.version}`;
    if (this.#unavailable !== undefined || !this.#peer.ok || !bot) return;
    this.#scene = new ViewerScene({ peer: this.#peer.peer, bot, viewer: input.viewer, ...(input.belief ? { belief: input.belief } : {}), maxClients: input.maxClients, allowRequest: (request) => this.#hasSession(request) });
  }

  /** Whether `path` belongs to the view's socket (engine.io polling and upgrades). */
  static isSocketPath(path: string): boolean {
    return path === SCENE_SOCKET_PATH || path.startsWith(`${SCENE_SOCKET_PATH}/`);
  }

  /** The `Set-Cookie` for a token holder's page; 501 with the reason when there is no view to open. */
  session(): string {
    this.#ready();
    return `${COOKIE}=${this.#sessionKey}; Path=/viewer/; HttpOnly; SameSite=Strict`;
  }

  /** Throws the 501 that says why the view cannot be shown (the peer missing, no bot, a version it cannot draw). */
  #ready(): ViewerScene {
    if (!this.#scene) throw new ApiError(501, 'viewer_unavailable', this.#unavailable ?? 'the 3D view is not available');
    return this.#scene;
  }

  /** Serves one of the peer's page assets from its `public/` folder; 404 outside the served folders. */
  sendPeerFile(path: string, response: ServerResponse, head: boolean): void {
    this.#ready();
    const found = PEER_FILE.exec(path);
    const publicDir = this.#peer.ok ? this.#peer.peer.publicDir : '';
    const file = found ? normalize(join(publicDir, found[1]!)) : '';
    if (!found || !file.startsWith(publicDir + sep) || file.includes(`${sep}..`)) throw new ApiError(404, 'not_found', `no view asset ${path}`);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw new ApiError(404, 'not_found', `no view asset ${path}`);
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size, 'cache-control': 'max-age=3600', 'x-content-type-options': 'nosniff' });
    if (head) response.end();
    else createReadStream(file).pipe(response);
  }

  /** Throws 501 when the view cannot be shown; called before the page itself is served. */
  assertReady(): void {
    this.#ready();
  }

  handleRequest(request: IncomingMessage, response: ServerResponse): void {
    this.#ready().handleRequest(request, response);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#ready().handleUpgrade(request, socket, head);
  }

  close(): void {
    this.#scene?.close();
  }

  #hasSession(request: IncomingMessage): boolean {
    for (const part of (request.headers.cookie ?? '').split(';')) {
      const [name, value] = part.trim().split('=');
      if (name === COOKIE && value !== undefined && tokenMatches(value, this.#sessionKey)) return true;
    }
    return false;
  }
}

/** The bot as the 3D view reads it, when it has a world, a version and events (a mineflayer Bot). */
function sceneBot(bot: unknown): SceneBot | undefined {
  const candidate = bot as Partial<SceneBot> | undefined;
  if (!candidate || typeof candidate.version !== 'string' || typeof candidate.on !== 'function' || typeof candidate.removeListener !== 'function' || candidate.world == null) return undefined;
  return candidate as SceneBot;
}
