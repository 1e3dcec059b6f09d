import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The optional peer the 3D view is drawn by, and the range this package is tested with. */
export const VIEWER_PEER = 'prismarine-viewer';
export const VIEWER_PEER_RANGE = '^1.33.0';

/** A prismarine-viewer `WorldView`: streams the bot's chunk columns, block updates and entities to one emitter. */
export interface PeerWorldView {
  init(position: unknown): Promise<void>;
  updatePosition(position: unknown): Promise<void>;
  listenToBot(bot: unknown): void;
  removeListenersFromBot(bot: unknown): void;
}

/** The socket.io socket of one viewer page (only what the view uses). */
export interface PeerSocket {
  emit(event: string, data: unknown): void;
  on(event: 'disconnect', listener: () => void): void;
  disconnect(close?: boolean): void;
}

/** An engine.io server bound to a socket.io server: the transport the peer's prebuilt page speaks. */
export interface PeerTransport {
  handleRequest(request: IncomingMessage, response: ServerResponse): void;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  onConnection(listener: (socket: PeerSocket) => void): void;
  close(): void;
}

/** What the 3D view needs of the installed peer. */
export interface ViewerPeer {
  readonly version: string;
  /** The peer's prebuilt page assets (`index.js`, `worker.js`, `textures/`, `blocksStates/`). */
  readonly publicDir: string;
  /** The texture set the peer draws a Minecraft version with (1.20.4 → 1.20.1), null when it has none. */
  textureVersion(minecraftVersion: string): string | null;
  createWorldView(world: unknown, viewDistance: number, position: unknown, emitter: PeerSocket): PeerWorldView;
  createTransport(options: { path: string; allowRequest: (request: IncomingMessage) => boolean; maxClients: number }): PeerTransport;
}

/** Either the loaded peer or why it could not be loaded, in words a user can act on. */
export type ViewerPeerResult = { readonly ok: true; readonly peer: ViewerPeer } | { readonly ok: false; readonly message: string };

type Load = (id: string) => unknown;
interface Loaded {
  readonly WorldView: new (world: unknown, viewDistance: number, position: unknown, emitter: PeerSocket) => PeerWorldView;
  readonly getVersion: (version: string) => string | null;
  readonly SocketServer: new (options: object) => { bind(engine: unknown): void; on(event: 'connection', listener: (socket: PeerSocket) => void): void; close(): void };
  readonly EngineServer: new (options: object) => { handleRequest(request: IncomingMessage, response: ServerResponse): void; handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void; clientsCount: number };
}

/**
 * Loads prismarine-viewer from where `@sinew/server` is installed. It is an optional peer: a bot that does not
 * show the 3D view installs nothing for it, and asking for the view without it gets this message.
 */
export function loadViewerPeer(from: string = moduleFile()): ViewerPeerResult {
  const require = createRequire(from);
  let manifest: string;
  try {
    manifest = require.resolve(`${VIEWER_PEER}/package.json`);
  } catch {
    return { ok: false, message: `the 3D view needs the optional peer dependency ${VIEWER_PEER}: run \`npm install ${VIEWER_PEER}@${VIEWER_PEER_RANGE}\` beside @sinew/server` };
  }
  try {
    const peerRequire: Load = createRequire(manifest);
    const socketIo = createRequire(createRequire(manifest).resolve('socket.io'));
    const loaded: Loaded = {
      WorldView: (peerRequire('./viewer/lib/worldView.js') as Pick<Loaded, 'WorldView'>).WorldView,
      getVersion: (peerRequire('./viewer/lib/version.js') as Pick<Loaded, 'getVersion'>).getVersion,
      SocketServer: (peerRequire('socket.io') as { Server: Loaded['SocketServer'] }).Server,
      EngineServer: (socketIo('engine.io') as { Server: Loaded['EngineServer'] }).Server,
    };
    const version = String((peerRequire('./package.json') as { version?: unknown }).version);
    return { ok: true, peer: adapt(loaded, version, join(dirname(manifest), 'public')) };
  } catch (error) {
    return { ok: false, message: `${VIEWER_PEER} is installed but could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); install ${VIEWER_PEER}@${VIEWER_PEER_RANGE}` };
  }
}

function adapt(loaded: Loaded, version: string, publicDir: string): ViewerPeer {
  return {
    version,
    publicDir,
    textureVersion: (minecraftVersion) => loaded.getVersion(minecraftVersion),
    createWorldView: (world, viewDistance, position, emitter) => new loaded.WorldView(world, viewDistance, position, emitter),
    createTransport({ path, allowRequest, maxClients }) {
      // The engine is driven by hand (no attach): this server routes the path and owns the upgrade listener.
      const engine = new loaded.EngineServer({
        path,
        maxHttpBufferSize: 16 * 1024,
        allowRequest: (request: IncomingMessage, answer: (error: string | null | undefined, allowed: boolean) => void) => {
          if (!allowRequest(request)) return answer('forbidden', false);
          if (engine.clientsCount >= maxClients) return answer('too many viewers', false);
          answer(null, true);
        },
      });
      const io = new loaded.SocketServer({ path, serveClient: false });
      io.bind(engine);
      return {
        handleRequest: (request, response) => engine.handleRequest(request, response),
        handleUpgrade: (request, socket, head) => engine.handleUpgrade(request, socket, head),
        onConnection: (listener) => io.on('connection', listener),
        close: () => io.close(),
      };
    },
  };
}

function moduleFile(): string {
  return typeof __filename === 'string' ? __filename : import.meta.url;
}
