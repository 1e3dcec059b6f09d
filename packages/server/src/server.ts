import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Executor, ProvenanceRecord } from '@sinew/bt-runtime';
import { describeError } from '@sinew/executor-contracts';
import { WebSocketServer } from 'ws';
import { carriesToken, isLoopback, STREAM_PROTOCOL } from './auth.js';
import { Control, type SignalRouter } from './control.js';
import { loadInspector } from './inspector/assets.js';
import { ApiError, sendError } from './http/reply.js';
import { ConnectionGate } from './http/connections.js';
import { HostCheck } from './http/hosts.js';
import { route, treePaths, type BeliefSource, type RouteDeps } from './http/routes.js';
import type { FleetProducer } from './http/fleet.js';
import { ServerAddressSchema, ServerLimitsSchema, ServerOptionsError, SERVER_OPTION_KEYS, type ServerLimits, type ServerLimitsInput } from './options.js';
import { serverMetrics, type ServerMetrics } from './metrics.js';
import { botStatus, type BotLike } from './status.js';
import { heartbeat, upgrade } from './stream/endpoint.js';
import { EventHub, type StreamClientStats } from './stream/hub.js';
import { PlanOutcomes } from './stream/outcomes.js';
import { recordHub } from './stream/record.js';
import { sampleBelief } from './stream/belief-source.js';
import { ViewerState } from './viewer/control.js';
import { View3d } from './viewer/view3d.js';
import { forwardCognition, forwardExecutor, safetyEmergency, sampleBot, type CognitionSource, type ReflexEventLike } from './stream/sources.js';

/** Options of `serveSinew`: what to serve, where, and who may act. */
export interface SinewServerOptions<Body> {
  readonly executor: Executor<Body>;
  /** The bot `/api/bot/status` and `botEvent` report (a mineflayer Bot fits). */
  readonly bot?: BotLike;
  /** Belief tracks and hazards for the inspector (a `BeliefBus` fits). */
  readonly belief?: BeliefSource;
  /** Where `POST /api/cognitive/signals` sends intents (a planners `Router` fits); without it that route answers 501. */
  readonly router?: SignalRouter;
  /** The world handed to `router.plan(intent, world)`. */
  readonly observe?: () => unknown;
  /**
   * A cognition loop (`createCognition` of @sinew/planners): each decision is a `cognitionEvent`, the inspector's inner
   * monologue; when it can `suggest`, `POST /api/cognitive/signals` goes through it (input filter, gate) instead of `router`.
   */
  readonly cognition?: CognitionSource;
  /** The last provenance records for the inspector (a `createMemoryProvenance()` sink given to the executor fits). */
  readonly provenance?: {
    /** The records kept, oldest first. */
    records(): readonly ProvenanceRecord[];
  };
  /** Behavior-tree definitions by verb (`{ gather: GATHER_TREE }`): the inspector draws them and lights the active node. */
  readonly trees?: Readonly<Record<string, string | object>>;
  readonly port: number;
  /** Default 127.0.0.1; any other non-loopback host needs a token. */
  readonly host?: string;
  /** Bearer token for the mutating routes, a plan's whole outcome and the event stream; without one they answer 403. */
  readonly token?: string;
  /**
   * Names a request's Host (and a WebSocket's Origin) may carry besides the bound address and the loopback
   * names at the bound port: `'bot.lan'` at any port, `'bot.lan:8443'` only there. Others get 421 (403 for an Origin).
   */
  readonly allowedHosts?: readonly string[];
  readonly limits?: ServerLimitsInput;
  /** Appends the event stream to this file, one envelope per line, for `npx sinew-inspect <file>` to replay. */
  readonly record?: string;
  /** Where `POST /api/fleet/plans` queues plans (a `createFleetQueue()` of @sinew/fleet); without it that route answers 501. */
  readonly fleet?: FleetProducer;
}

/** A running control plane. */
export interface SinewServer {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly limits: ServerLimits;
  /** Publishes a plan a planner made in process (the stream's `planGenerated`). */
  planGenerated(data: { readonly intentId: string; readonly planner: string; readonly reason?: string; readonly plan: unknown }): void;
  /** Pass as the reflex's `onEvent` (`createReflex({ onEvent: server.reflexEvent })`): preemptions become `safety_emergency`. */
  readonly reflexEvent: (event: ReflexEventLike) => void;
  /** The stream's clients with their queue and drop counters. */
  clients(): StreamClientStats[];
  /** The last event seq published. */
  lastSeq(): number;
  /** This start's event-stream epoch (in every `stream.hello`): seqs of another epoch are not resumed, they get a snapshot. */
  readonly epoch: string;
  /** Stops the stream and the listener, closes every connection and flushes the `record` file. */
  close(): Promise<void>;
}

interface ParsedOptions {
  readonly port: number;
  readonly host: string;
  readonly token: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly limits: ServerLimits;
  readonly record: string | undefined;
}

function parseOptions<Body>(options: SinewServerOptions<Body>): ParsedOptions {
  const unknown = Object.keys(options).filter((key) => !(SERVER_OPTION_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    const names = unknown.map((k) => JSON.stringify(k)).join(', ');
    throw ServerOptionsError.field('serveSinew', [unknown[0]!], `unknown option ${names}; known: ${SERVER_OPTION_KEYS.join(', ')}`, 'unrecognized_keys');
  }
  const address = ServerAddressSchema.safeParse({ port: options.port, host: options.host, token: options.token, allowedHosts: options.allowedHosts, record: options.record });
  if (!address.success) throw ServerOptionsError.fromZod('serveSinew', address.error);
  const limits = ServerLimitsSchema.safeParse(options.limits ?? {});
  if (!limits.success) throw ServerOptionsError.fromZod('serveSinew.limits', limits.error);
  const { port, host, token, allowedHosts, record } = address.data;
  if (!isLoopback(host) && token === undefined) {
    throw ServerOptionsError.field('serveSinew', ['host'], `refusing to bind ${host} without a token; pass { token } (createToken()) or bind 127.0.0.1`, 'insecure_bind');
  }
  return { port, host, token, allowedHosts, limits: limits.data, record };
}

/**
 * Serves one bot's control plane on `node:http` + `ws`: metrics, health, status, plan execution,
 * signals, preempt and cancel, the `/api/events` WebSocket stream and the inspector page at `/`.
 *
 * @example
 * const token = createToken();
 * const server = await serveSinew({ executor, bot, port: 9464, token });
 * console.log(`${server.url}/#token=${token}`);
 */
export async function serveSinew<Body>(options: SinewServerOptions<Body>): Promise<SinewServer> {
  const { port, host, token, allowedHosts, limits, record } = parseOptions(options);
  const { executor } = options;
  const metrics = serverMetrics(executor.metrics.registry);
  // Envelopes are stamped on the executor's clock (epoch ms with its default, the system clock), as its outcomes are.
  const clock = executor.clock;
  const hub = new EventHub(limits, () => clock.now(), () => metrics.dropped.inc(), () => botStatus(options.bot, executor.state()));
  const outcomes = new PlanOutcomes(hub, limits.outcomesKept, limits.outcomeStepsKept);
  const deps = routeDeps(options, { control: new Control(executor, { hub, outcomes }, options.router, options.observe, options.cognition), outcomes }, token, limits);
  const recording = record === undefined ? undefined : recordHub(hub, record, deps.trees);
  const server = createServer({ connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))) });
  applyLimits(server, limits);
  const gate = new ConnectionGate(limits, token !== undefined);
  server.on('connection', (socket: Socket) => gate.admit(socket));
  await listen(server, port, host).catch(async (error: unknown) => {
    await recording?.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  // Requests arrive only after listen: the Host check needs the port the kernel chose.
  const door: Door = { hosts: new HostCheck(host, address.port, allowedHosts), gate, token };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => void handleRequest(deps, door, request, response));
  const stream = attachStream(server, { hub, limits, metrics, door, view3d: deps.view3d });
  const stops = [forwardExecutor(executor, hub, outcomes), options.bot ? sampleBot(options.bot, hub, limits.botEventIntervalMs) : () => {}, options.belief ? sampleBelief(options.belief, hub, limits.botEventIntervalMs) : () => {}, options.cognition ? forwardCognition(options.cognition, hub) : () => {}, stream.close, () => deps.view3d.close()];
  const classOf = (trackId: number) => options.belief?.tracks().find((t) => t.trackId === trackId)?.cls;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    host: address.address,
    port: address.port,
    limits,
    planGenerated: (data) => hub.publish('planGenerated', data),
    reflexEvent: (event) => {
      const emergency = safetyEmergency(event, classOf);
      if (emergency) hub.publish('safety_emergency', emergency);
    },
    clients: () => hub.clients(),
    lastSeq: () => hub.lastSeq,
    epoch: hub.epoch,
    close: async () => {
      hub.flush();
      for (const stop of stops) stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await recording?.close();
    },
  };
}

function routeDeps<Body>(options: SinewServerOptions<Body>, plans: Pick<RouteDeps<Body>, 'control' | 'outcomes'>, token: string | undefined, limits: ServerLimits): RouteDeps<Body> {
  const viewer = new ViewerState();
  return {
    executor: options.executor,
    ...plans,
    token,
    maxBodyBytes: limits.maxBodyBytes,
    ...(options.bot ? { bot: options.bot } : {}),
    ...(options.belief ? { belief: options.belief } : {}),
    ...(options.provenance ? { provenance: options.provenance } : {}),
    ...(options.fleet ? { fleet: options.fleet } : {}),
    trees: treePaths(options.trees),
    assets: loadInspector(),
    viewer,
    view3d: new View3d({ bot: options.bot, viewer, ...(options.belief ? { belief: options.belief } : {}), maxClients: limits.maxStreamClients }),
  };
}

/** The `/api/events` endpoint on this server's upgrades, with its heartbeat and client gauge. */
function attachStream(server: Server, input: { hub: EventHub; limits: ServerLimits; metrics: ServerMetrics; door: Door; view3d: View3d }): { close(): void } {
  const { hub, limits, metrics, door } = input;
  const { hosts, token } = door;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false, handleProtocols: (offered) => (offered.has(STREAM_PROTOCOL) ? STREAM_PROTOCOL : false) });
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    // A stream socket with the token keeps its slot; one without is refused by the stream's own auth.
    door.gate.heard(socket, carriesToken(token, request.headers));
    if (View3d.isSocketPath(pathOf(request.url))) return upgradeView(input.view3d, door, request, socket, head);
    upgrade({ request, socket, head, wss, hub, token, limits, hosts });
  });
  const stopHeartbeat = heartbeat(wss, limits.heartbeatMs);
  wss.on('connection', (ws) => {
    metrics.clients.set(wss.clients.size);
    ws.once('close', () => metrics.clients.set(wss.clients.size));
  });
  return {
    close: () => {
      stopHeartbeat();
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

/** The 3D view's socket upgrade: the same Host and Origin checks as the stream, then the view's own session check. */
function upgradeView(view3d: View3d, door: Door, request: IncomingMessage, socket: Socket, head: Buffer): void {
  socket.on('error', () => socket.destroy());
  if (!door.hosts.hostAllowed(request.headers.host) || !door.hosts.originAllowed(request.headers.origin)) {
    socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    return;
  }
  try {
    view3d.handleUpgrade(request, socket, head);
  } catch (error) {
    const message = error instanceof ApiError ? error.message : 'the 3D view is not available';
    socket.end(`HTTP/1.1 501 Not Implemented\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`);
  }
}

/** The path of a request target, '' when it is not one. */
function pathOf(target: string | undefined): string {
  try {
    return new URL(target ?? '', 'http://localhost').pathname;
  } catch {
    return '';
  }
}

function applyLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.idleTimeoutMs;
  // No 'timeout' listener: Node destroys a socket idle this long (the stream's sockets get no timeout from ws).
  server.timeout = limits.idleTimeoutMs;
  // The ConnectionGate enforces maxConnections (with its reserve); this is only a backstop while evicted sockets close.
  server.maxConnections = limits.maxConnections * 2;
  server.maxHeadersCount = 64;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** What every request passes before routing: the Host check and the connection gate. */
interface Door {
  readonly hosts: HostCheck;
  readonly gate: ConnectionGate;
  readonly token: string | undefined;
}

async function handleRequest<Body>(deps: RouteDeps<Body>, door: Door, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // An anonymous request on a reserve slot gets its answer, then the slot is given back.
  if (!door.gate.heard(request.socket, carriesToken(door.token, request.headers))) closeAfter(request, response);
  try {
    if (!door.hosts.hostAllowed(request.headers.host)) throw misdirected(request.headers.host);
    const url = parseUrl(request.url);
    // The 3D page's socket.io polling requests go to its engine (which checks the page's session cookie).
    if (View3d.isSocketPath(url.pathname)) return deps.view3d.handleRequest(request, response);
    await route(deps, request, response, url);
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError(500, 'internal_error', describeError(error));
    // Whoever is refused does not get to make us read (or wait for) the rest of the body: drop the socket.
    if (CLOSE_AFTER.has(apiError.status)) closeAfter(request, response);
    sendError(response, apiError, errorHeaders(apiError));
  }
}

/** Answers after which the connection is closed without reading the body: refused, misdirected, unknown, unreadable. */
const CLOSE_AFTER = new Set([401, 403, 404, 413, 415, 421]);

/** `Connection: close`, and the socket destroyed once the answer is written (an unread body is not drained). */
function closeAfter(request: IncomingMessage, response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
  response.once('finish', () => request.socket.destroy());
}

/** 421: the request names another host (a rebound DNS name); the answer says nothing about this server. */
function misdirected(host: string | undefined): ApiError {
  return new ApiError(421, 'misdirected_host', `the Host ${JSON.stringify(String(host ?? '').slice(0, 100))} does not name this server; add the name to serveSinew's allowedHosts`);
}

/** A request target that is not a parseable path → 400, never a 500. */
function parseUrl(target: string | undefined): URL {
  try {
    if (!target || !target.startsWith('/') || target.startsWith('//')) throw new Error('not an origin-form path');
    return new URL(target, 'http://localhost');
  } catch {
    throw new ApiError(400, 'bad_url', `malformed request target ${JSON.stringify(String(target).slice(0, 200))}; send a path such as /api/bot/status`);
  }
}

function errorHeaders(error: ApiError): Record<string, string> {
  if (error.status === 401) return { 'www-authenticate': 'Bearer' };
  if (error.status === 405 && typeof error.details?.allow === 'string') return { allow: error.details.allow };
  return {};
}
