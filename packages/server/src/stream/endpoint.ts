import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { WebSocket, WebSocketServer } from 'ws';
import { authorize, presentedToken } from '../auth.js';
import type { HostCheck } from '../http/hosts.js';
import type { ServerLimits } from '../options.js';
import type { EventHub } from './hub.js';
import { readClientMessage } from './subscription.js';

/** Answers a refused upgrade with a plain HTTP response carrying the same JSON error shape as the API. */
function refuse(socket: Socket, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

const SinceSchema = /^(0|[1-9][0-9]{0,15})$/;
const EpochSchema = /^[A-Za-z0-9_-]{1,64}$/;

/** `GET /api/events` upgrades: Host and Origin, path, auth (header or `bearer.<token>` subprotocol), `?since=<seq>&epoch=<id>`, client cap. */
export function upgrade(input: {
  request: IncomingMessage;
  socket: Socket;
  head: Buffer;
  wss: WebSocketServer;
  hub: EventHub;
  token: string | undefined;
  limits: ServerLimits;
  hosts: HostCheck;
}): void {
  const { request, socket, wss, hub } = input;
  socket.on('error', () => socket.destroy());
  if (!input.hosts.hostAllowed(request.headers.host)) return refuse(socket, 421, 'misdirected_host', 'the Host does not name this server; add the name to serveSinew\'s allowedHosts');
  // A browser always sends its page's Origin: a page of another site may not open the stream, token or not.
  if (!input.hosts.originAllowed(request.headers.origin)) return refuse(socket, 403, 'forbidden_origin', 'the Origin is not a page of this server');
  let url: URL;
  try {
    url = new URL(request.url ?? '', 'http://localhost');
  } catch {
    return refuse(socket, 400, 'bad_url', 'malformed request target');
  }
  if (url.pathname !== '/api/events') return refuse(socket, 404, 'not_found', `no WebSocket endpoint ${url.pathname}; use /api/events`);
  const verdict = authorize(input.token, presentedToken(request.headers));
  if (!verdict.ok) return refuse(socket, verdict.status, verdict.code, verdict.message);
  const since = url.searchParams.get('since');
  if (since !== null && !SinceSchema.test(since)) return refuse(socket, 400, 'invalid_query', `since must be a non-negative integer seq, got ${JSON.stringify(since.slice(0, 40))}`);
  const epoch = url.searchParams.get('epoch');
  if (epoch !== null && !EpochSchema.test(epoch)) return refuse(socket, 400, 'invalid_query', `epoch must be the id a stream.hello gave (1-64 of A-Z a-z 0-9 _ -), got ${JSON.stringify(epoch.slice(0, 40))}`);
  if (wss.clients.size >= input.limits.maxStreamClients) {
    return refuse(socket, 503, 'too_many_clients', `the stream already has ${input.limits.maxStreamClients} clients`);
  }
  wss.handleUpgrade(request, socket, input.head, (ws: WebSocket) => {
    wss.emit('connection', ws, request);
    ws.on('error', () => ws.terminate());
    const id = hub.attach(ws, { since: since === null ? undefined : Number(since), epoch: epoch ?? undefined });
    // What a client may say (at most maxPayload bytes): which event types it wants; anything else gets a stream.error.
    ws.on('message', (data, isBinary) => {
      const read = readClientMessage(data, isBinary);
      if (read.ok) hub.subscribe(id, read.subscription);
      else hub.refuse(id, read.refusal);
    });
  });
}

/** Pings every client each period; one that has not answered the previous ping is terminated. */
export function heartbeat(wss: WebSocketServer, periodMs: number): () => void {
  const alive = new WeakSet<WebSocket>();
  wss.on('connection', (ws: WebSocket) => {
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
  });
  const timer = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
