import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createExecutor, createExecutorMetrics, type Executor } from '@sinew/bt-runtime';
import { defineCapability, guardOk, type CapabilityRegistry } from '@sinew/executor-contracts';
import { WebSocket } from 'ws';
import { z } from 'zod';
import type { EventEnvelope } from '../src/index.js';
import { craftItem, digBlock, fakeBody, registryWith, type Body } from '../../bt-runtime/test/fake-body.js';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json(): { error?: { code: string; message: string; issues?: { path: (string | number)[]; code: string; message: string }[] } } & Record<string, unknown>;
}

/** One real HTTP request over loopback. */
export function http(base: string, path: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
    const req = request(new URL(path, base), { method: options.method ?? 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A POST of JSON with an optional bearer token. */
export function post(base: string, path: string, body: unknown, token?: string): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return http(base, path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers });
}

/** A raw TCP socket to the server (for slow, malformed or silent clients); `closed` resolves with what it received. */
export function rawSocket(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const openedAt = Date.now();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - openedAt)));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/**
 * A raw upload: request headers declaring `declaredBytes`, then a body written as fast as the socket
 * takes it for at most `forMs`. Reports what came back, when the server closed, and how much it took.
 */
export async function streamBody(port: number, input: { path: string; host: string; declaredBytes: number; forMs: number; headers?: Record<string, string> }): Promise<{ response: string; closedAfterMs: number; bytesWritten: number }> {
  const raw = await rawSocket(port);
  const extra = Object.entries(input.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  raw.socket.write(`POST ${input.path} HTTP/1.1\r\nhost: ${input.host}\r\ncontent-type: application/json\r\ncontent-length: ${input.declaredBytes}\r\n${extra}\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const startedAt = Date.now();
  let open = true;
  void raw.closed.then(() => (open = false));
  while (open && Date.now() - startedAt < input.forMs && raw.socket.bytesWritten < input.declaredBytes) {
    if (!raw.socket.write(chunk)) await Promise.race([new Promise((resolve) => raw.socket.once('drain', resolve)), raw.closed, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  const stillOpen = open;
  raw.socket.destroy();
  const closedAfterMs = stillOpen ? Infinity : (await raw.closed);
  return { response: raw.received(), closedAfterMs, bytesWritten: raw.socket.bytesWritten };
}

/** A WebSocket client of `/api/events` that records every envelope. */
export class StreamClient {
  readonly events: EventEnvelope[] = [];
  readonly socket: WebSocket;
  readonly opened: Promise<void>;
  #waiters: (() => void)[] = [];

  constructor(base: string, options: { token?: string; since?: number; epoch?: string; protocols?: string[]; headers?: Record<string, string> } = {}) {
    const query = new URLSearchParams();
    if (options.since !== undefined) query.set('since', String(options.since));
    if (options.epoch !== undefined) query.set('epoch', options.epoch);
    const url = `${base.replace('http', 'ws')}/api/events${query.size ? `?${query}` : ''}`;
    const headers = { ...options.headers, ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) };
    this.socket = new WebSocket(url, options.protocols ?? ['sinew.v1'], { headers });
    this.socket.on('message', (data) => {
      for (const line of String(data).split('\n')) this.events.push(JSON.parse(line) as EventEnvelope);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
      this.socket.once('error', reject);
    });
  }

  /** Waits (bounded) until an event matches. */
  async waitFor(match: (event: EventEnvelope) => boolean, timeoutMs = 5_000): Promise<EventEnvelope> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event in ${timeoutMs} ms; got ${this.events.map((e) => e.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/** hold: acts once, then waits until its step is aborted (cancel and preempt tests). */
export const hold = defineCapability<z.ZodObject<{ ms: z.ZodNumber }>, Body>({
  name: 'hold',
  version: '1.0.0',
  description: 'move once, then hold until aborted or ms elapse',
  inputSchema: z.object({ ms: z.number().int().positive() }),
  guard: () => guardOk,
  run: async (ctx, { ms }) => {
    ctx.body.move(1);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  },
  acceptance: () => ({ ok: true }),
});

/** A fake-body executor with dig_block, craft_item and hold registered. */
export function fakeExecutor(extra: Parameters<CapabilityRegistry<Body>['register']>[0][] = []): { executor: Executor<Body>; body: Body } {
  const body = fakeBody();
  const executor = createExecutor({ registry: registryWith(digBlock, craftItem, hold, ...extra), body, metrics: createExecutorMetrics() });
  return { executor, body };
}

export const TOKEN = 'test-token-0123456789abcdef';
/** The bearer header of `TOKEN`, for reads that need it. */
export const AUTH = { authorization: `Bearer ${TOKEN}` };
