import { ConfigError, parseConfig } from '@sinew/executor-contracts';
import { once } from 'node:events';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import { TestkitError } from './errors.js';
import type { ExtensionContext, ResetHandler } from './extensions/context.js';
import { AnimalsSchema, configureAnimals } from './extensions/animals.js';
import { installExtensions } from './extensions/index.js';
import { configureRegeneration } from './extensions/regeneration.js';
import { configureHostileSpawning, HostileSpawningInputSchema } from './extensions/spawning.js';
import { createQuietSquid } from './squid/load.js';
import type { SquidPlayer, SquidServer } from './squid/types.js';
import { connectExternal, type ExternalControl } from './external.js';
import { installTerrain, terrainSpawn } from './terrain/index.js';
import { boundColumns } from './terrain/unload.js';

/** Minecraft version the testkit is built and tested for. */
export const DEFAULT_VERSION = '1.20.4';
/** Top block of the superflat ground (grass); bots stand at GROUND_Y + 1. */
export const GROUND_Y = 4;

const startServerOptionsSchema = z
  .object({
    /** Minecraft version (default 1.20.4, the one the extensions are tested on). */
    version: z.string().regex(/^\d+\.\d+(\.\d+)?$/, 'a version like "1.20.4"').optional(),
    /** TCP port on 127.0.0.1 (default: a free one). */
    port: z.number().int().min(0).max(65535).optional(),
    /** World seed (superflat ignores it for terrain; it still reaches the clients). */
    seed: z.number().int().optional(),
    /**
     * World storage: in memory by default; `dir` keeps region files there (left in place on stop). `generator: 'terrain'`
     * generates hills, water, caves, ores, trees and animals from `seed` (default: the top-level seed, else 0; 1.18+).
     */
    world: z
      .object({ dir: z.string().min(1).optional(), generator: z.enum(['superflat', 'terrain']).optional(), seed: z.number().int().optional() })
      .strict()
      .optional(),
    /** Chunk radius sent to bots (default 4). */
    viewDistance: z.number().int().min(2).max(12).optional(),
    /** Night-time hostile spawning near players: true for the defaults, or its options (default off). */
    hostileSpawning: HostileSpawningInputSchema.optional(),
    /** Vanilla natural regeneration (food ≥ 18 heals a hurt player; the `naturalRegeneration` game rule): default off, so health stays where a test put it. */
    naturalRegeneration: z.boolean().optional(),
    /** Passive animals: how often chickens lay eggs (`eggIntervalTicks`, vanilla 6000). */
    animals: AnimalsSchema.optional(),
  })
  .strict();

/** Options of {@link startServer}. */
export type StartServerOptions = z.input<typeof startServerOptionsSchema>;

/** A running test server. */
export interface TestServer {
  host: string;
  port: number;
  version: string;
  /** The flying-squid server object; null when the handle points to an external server. */
  serv: SquidServer | null;
  /** True when SINEW_MC_HOST/SINEW_MC_PORT selected an external server. */
  external: boolean;
  /** Where players spawn (block centre, standing on the ground). */
  spawn: Vec3;
  /** Kicks all players, closes the server and every timer it owns. Safe to call twice. */
  stop(): Promise<void>;
}

/** Bookkeeping behind a TestServer handle. */
export interface ServerState {
  handle: TestServer;
  serv: SquidServer | null;
  external: ExternalControl | null;
  bots: Set<Bot>;
  ctx: ExtensionContext | null;
  /** Extension hooks run by reset(). */
  resetHandlers: ResetHandler[];
  /** Chunk columns ("x,z") whose blocks changed since the last reset. */
  dirtyChunks: Set<string>;
  stopped: boolean;
  botCounter: number;
}

const debugLog = process.env.SINEW_TESTKIT_DEBUG ? (message: unknown) => console.error('[squid]', message) : () => undefined;

const states = new WeakMap<TestServer, ServerState>();

/** The bookkeeping of a handle returned by startServer. */
export function stateOf(server: TestServer): ServerState {
  const state = states.get(server);
  if (!state) throw ConfigError.field('testkit', ['server'], 'not a server returned by startServer()');
  if (state.stopped) throw new TestkitError('server_stopped', 'the server was stopped');
  return state;
}

/** The flying-squid server of an embedded handle, or a clear error for external ones. */
export function embedded(server: TestServer, helper: string): { state: ServerState; serv: SquidServer } {
  const state = stateOf(server);
  if (!state.serv) throw new TestkitError('unsupported_external', `${helper} needs the embedded server`);
  return { state, serv: state.serv };
}

/** The server-side player of a connected username. */
export function playerOf(serv: SquidServer, username: string): SquidPlayer {
  const player = serv.getPlayer(username);
  if (!player) throw new TestkitError('player_not_found', `no player named ${username} on the server`);
  return player;
}

/** Parses options with zod (absent options are `{}`); a bad field becomes a ConfigError (`invalid_config`) naming it. */
export function parseOptions<T extends z.ZodType>(schema: T, input: unknown, where: string): z.output<T> {
  return parseConfig(where, schema, input ?? {});
}

/** Where a server's players spawn and which generator it runs: the terrain seed, or null for superflat. */
function worldOf(options: ParsedOptions, version: string): { terrainSeed: number | null; spawn: Vec3 } {
  const terrainSeed = options.world?.generator === 'terrain' ? (options.world.seed ?? options.seed ?? 0) : null;
  return { terrainSeed, spawn: terrainSeed === null ? new Vec3(0.5, GROUND_Y + 1, 0.5) : terrainSpawn(terrainSeed, version) };
}

/**
 * Starts flying-squid in this process on 127.0.0.1 (offline mode, superflat, survival), with
 * the testkit's extensions (crafting, eating, mob AI, respawn, player list, game-mode sync).
 * With SINEW_MC_HOST/SINEW_MC_PORT set, returns a handle to that external server instead.
 */
export async function startServer(input: StartServerOptions = {}): Promise<TestServer> {
  const options = parseOptions(startServerOptionsSchema, input, 'startServer');
  const version = options.version ?? DEFAULT_VERSION;
  const { terrainSeed, spawn } = worldOf(options, version);

  const externalHost = process.env.SINEW_MC_HOST;
  if (externalHost && terrainSeed !== null) throw new TestkitError('unsupported_external', "world.generator 'terrain' needs the embedded server");
  if (externalHost) return startExternal(externalHost, version, spawn);
  // flying-squid crashes the process 5 s after a failed listen; find a taken port before.
  if (options.port) await ensurePortFree(options.port);

  const serv = createQuietSquid(squidSettings(options, version));
  serv.getSpawnPoint = async () => spawn.clone();
  const { ctx, cleanups, resetHandlers } = extensionContext(serv);
  const pendingSaves = awaitablePlayerSaves(serv);
  installExtensions(ctx);
  if (options.hostileSpawning) configureHostileSpawning(serv, options.hostileSpawning, true);
  if (options.animals) configureAnimals(serv, options.animals);
  if (options.naturalRegeneration) configureRegeneration(serv, true, true);

  const state: ServerState = {
    handle: undefined as unknown as TestServer,
    serv,
    external: null,
    bots: new Set(),
    ctx,
    stopped: false,
    botCounter: 0,
    dirtyChunks: new Set(),
    resetHandlers,
  };
  const stop = stopper(state, cleanups, pendingSaves);
  try {
    await untilReady(serv);
  } catch (err) {
    await stop();
    throw err;
  }
  prepareWorld(serv, state, options, { version, terrainSeed });
  trackConnections(serv);
  const address = serv._server.socketServer?.address() as { port: number } | null;
  const handle: TestServer = { host: '127.0.0.1', port: address?.port ?? options.port ?? 0, version, serv, external: false, spawn, stop };
  state.handle = handle;
  states.set(handle, state);
  return handle;
}

type ParsedOptions = z.output<typeof startServerOptionsSchema>;

/** flying-squid's settings for a testkit server: 127.0.0.1, offline, quiet, survival, superflat (terrain replaces it once ready). */
function squidSettings(options: ParsedOptions, version: string): Parameters<typeof createQuietSquid>[0] {
  return {
    motd: 'sinew testkit',
    port: options.port ?? 0,
    host: '127.0.0.1',
    'online-mode': false,
    logging: false,
    noConsoleOutput: true,
    // A debug hook also keeps flying-squid from installing process-wide crash handlers (process.exit).
    debug: debugLog,
    gameMode: 0,
    difficulty: 2,
    'max-players': 50,
    'max-entities': 500,
    'view-distance': options.viewDistance ?? 4,
    kickTimeout: 30_000,
    'everybody-op': true,
    'player-list-text': { header: { text: 'sinew' }, footer: { text: 'testkit' } },
    plugins: {},
    modpe: false,
    version,
    generation: { name: 'superflat', options: { seed: options.seed } },
    worldFolder: options.world?.dir,
  };
}

/** The context the extensions install into, with the cleanups stop() runs and the handlers reset() runs. */
function extensionContext(serv: SquidServer): { ctx: ExtensionContext; cleanups: (() => void)[]; resetHandlers: ResetHandler[] } {
  const cleanups: (() => void)[] = [];
  const resetHandlers: ResetHandler[] = [];
  const ctx: ExtensionContext = {
    serv,
    timers: new Set(),
    onStop: (cleanup) => cleanups.push(cleanup),
    onReset: (handler) => resetHandlers.push(handler),
  };
  return { ctx, cleanups, resetHandlers };
}

/** Player data is saved (world dir mode) without being awaited; the returned set holds the writes stop() waits for. */
function awaitablePlayerSaves(serv: SquidServer): Set<Promise<unknown>> {
  const pendingSaves = new Set<Promise<unknown>>();
  serv.on('newPlayer', (player: SquidPlayer & { save(): Promise<unknown> }) => {
    const save = player.save;
    player.save = () => {
      const writing = save().catch((err: unknown) => serv.emit('error', err));
      pendingSaves.add(writing);
      void writing.finally(() => pendingSaves.delete(writing));
      return writing;
    };
  });
  return pendingSaves;
}

/** stop(): kicks the bots, runs the extensions' cleanups, shuts flying-squid down, waits for the saves; safe twice. */
function stopper(state: ServerState, cleanups: readonly (() => void)[], pendingSaves: Set<Promise<unknown>>): () => Promise<void> {
  return async () => {
    if (state.stopped) return;
    state.stopped = true;
    const bots = [...state.bots];
    state.bots.clear();
    await Promise.all(bots.map(quitAndWait));
    for (const cleanup of cleanups) cleanup();
    await shutdownSquid(state.serv!, state.ctx!);
    await Promise.allSettled([...pendingSaves]);
  };
}

/** The overworld exists once plugins are ready (after an await when a world dir is used): track changes, then flat columns or terrain. */
function prepareWorld(serv: SquidServer, state: ServerState, options: ParsedOptions, world: { version: string; terrainSeed: number | null }): void {
  trackDirtyChunks(serv, state.dirtyChunks);
  if (world.terrainSeed === null) return reuseFlatColumns(serv, world.version);
  installTerrain(serv, world.terrainSeed);
  // In memory, a generated world would grow with every chunk a bot walks past; a world dir keeps its own.
  if (!options.world?.dir) boundColumns(serv, state.dirtyChunks, (options.viewDistance ?? 4) + 1);
}

async function ensurePortFree(port: number): Promise<void> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(ConfigError.field('startServer', ['port'], `${port} on 127.0.0.1 is not available (${err.code ?? err.message})`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** Resolves on 'ready', rejects on the first 'error' before it (e.g. the port is taken); leaves no listener. */
function untilReady(serv: SquidServer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onReady = (): void => {
      serv.off('error', onError);
      resolve();
    };
    const onError = (err: unknown): void => {
      serv.off('ready', onReady);
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    serv.once('ready', onReady);
    serv.once('error', onError);
  });
}

interface ColumnClass {
  fromJson(json: string): unknown;
}
const flatColumns = new Map<string, { json: string; Column: ColumnClass }>();

/**
 * Superflat columns are all alike: generate one per version (≈4 ms each) and clone the rest
 * from it (≈0.5 ms), which takes ~250 ms off the first bot's spawn on a fresh server.
 */
function reuseFlatColumns(serv: SquidServer, version: string): void {
  const world = serv.overworld as unknown as { chunkGenerator: (x: number, z: number) => { toJson(): string } };
  const generate = world.chunkGenerator;
  world.chunkGenerator = (x, z) => {
    const cached = flatColumns.get(version);
    if (cached) return cached.Column.fromJson(cached.json) as { toJson(): string };
    const column = generate(x, z);
    flatColumns.set(version, { json: column.toJson(), Column: column.constructor as unknown as ColumnClass });
    return column;
  };
}

/** Records which chunk columns of the overworld any block write touches (reset regenerates only those). */
function trackDirtyChunks(serv: SquidServer, dirty: Set<string>): void {
  const world = serv.overworld as unknown as Record<string, (pos: Vec3, ...rest: unknown[]) => Promise<unknown>>;
  for (const method of ['setBlockStateId', 'setBlockType', 'setBlockData', 'setBlock', 'setBlockLight', 'setSkyLight']) {
    const original = world[method];
    if (typeof original !== 'function') continue;
    world[method] = function (this: unknown, pos: Vec3, ...rest: unknown[]) {
      dirty.add(`${Math.floor(pos.x / 16)},${Math.floor(pos.z / 16)}`);
      return original.call(this, pos, ...rest);
    };
  }
}

/** The sockets each embedded server has accepted and not yet seen close. */
const connections = new WeakMap<SquidServer, Set<Socket>>();

/** Keeps the server's open connections, so stop() can close every one of them. */
function trackConnections(serv: SquidServer): void {
  const open = new Set<Socket>();
  connections.set(serv, open);
  (serv._server as unknown as { socketServer?: NetServer }).socketServer?.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/**
 * Waits for `promise` (which must not reject), or `ms` at most. The timer is cleared once either ends: a stopped server
 * leaves no timer behind to fire later in the next test file sharing the worker.
 */
async function settledWithin(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref()))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Quits a bot and waits (at most 2 s) for its socket to close. */
export async function quitAndWait(bot: Bot): Promise<void> {
  const client = bot._client as unknown as { socket?: { destroyed?: boolean }; ended?: boolean; _endReason?: string };
  if (!client.socket || client.socket.destroyed || client.ended) return;
  const ended = once(bot, 'end').then(() => undefined);
  // Quitting again would replace the first quit's 30 s close timer with a new one, orphaning it: the process would stay alive.
  if (client._endReason === undefined) bot.quit();
  await settledWithin(ended, 2_000);
}

async function shutdownSquid(serv: SquidServer, ctx: ExtensionContext): Promise<void> {
  serv.stopTickInterval();
  const leaving = serv.players.map((player) => {
    const gone = player.disconnected ? Promise.resolve() : once(player, 'disconnected').then(() => undefined);
    try {
      player._client.end('server stopped');
    } catch {
      // already closed
    }
    return settledWithin(gone, 500);
  });
  await Promise.all(leaving);
  // Clients still in login/configuration are not players yet; end their sockets directly.
  const clients = (serv._server as unknown as { clients?: Record<string, { end(r: string): void; socket?: { destroy(): void } }> }).clients ?? {};
  for (const client of Object.values(clients)) {
    try {
      client.end('server stopped');
    } catch {
      // already closed
    }
    client.socket?.destroy();
  }
  // Every connection still open (a peer that never answered the end: a SIGKILLed bot's, say) is closed now, and each
  // player's logout runs before destroy(): destroy() makes a listed player's write throw, and a later logout's "left the
  // game" broadcast to that player was an unhandled rejection in the test process (fleet's kill test, issue 25). With
  // no connection left the socket server closes at once, not when the last peer lets go.
  for (const socket of connections.get(serv) ?? []) socket.destroy();
  await settledWithin(Promise.all(serv.players.map((player) => (player.disconnected ? undefined : once(player, 'disconnected')))), 1_000);
  for (const timer of ctx.timers) clearTimeout(timer);
  ctx.timers.clear();
  serv.overworld?.stopSaving?.();
  // A save already under way would otherwise write region files after stop() resolved (and after a test removed the dir).
  await settledWithin(serv.overworld?.waitSaving?.().catch(() => undefined), 3_000);
  const socketServer = (serv._server as unknown as { socketServer?: NetServer }).socketServer;
  const closed = socketServer?.listening ? once(socketServer, 'close').then(() => undefined) : Promise.resolve();
  try {
    await serv.destroy();
  } catch {
    // destroy() rejects when 'close' takes over 1 s; the wait below covers it
  }
  await settledWithin(closed, 3_000);
  // Handles finish closing on the next loop turns; resolve after them so callers see none left.
  await new Promise<void>((resolve) => setTimeout(resolve, 20));
}

async function startExternal(host: string, version: string, spawn: Vec3): Promise<TestServer> {
  const portText = process.env.SINEW_MC_PORT ?? '25565';
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw ConfigError.field('startServer', ['SINEW_MC_PORT'], `expected a port number, received ${JSON.stringify(portText)}`);
  const state: ServerState = {
    handle: undefined as unknown as TestServer,
    serv: null,
    external: null,
    bots: new Set(),
    ctx: null,
    stopped: false,
    botCounter: 0,
    dirtyChunks: new Set(),
    resetHandlers: [],
  };
  const handle: TestServer = {
    host,
    port,
    version: process.env.SINEW_MC_VERSION ?? version,
    serv: null,
    external: true,
    spawn,
    stop: async () => {
      if (state.stopped) return;
      state.stopped = true;
      for (const bot of state.bots) bot.quit();
      state.bots.clear();
      state.external?.close();
    },
  };
  state.handle = handle;
  state.external = connectExternal(handle);
  states.set(handle, state);
  return handle;
}
