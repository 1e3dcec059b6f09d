// Debian's redis-server, started for a test on a free loopback port with its own temp data dir (never the system
// service), every write fsync'd before it is acknowledged; stopped (or killed, to test a crash) by its PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly port: number;
  readonly dir: string;
  readonly pid: number;
  /** SIGKILL (a crash) or SIGTERM (a clean stop), then waits for the process to exit. */
  stop(signal?: 'SIGKILL' | 'SIGTERM'): Promise<void>;
  /** Starts redis-server again on the same port and data dir (what a restart after a crash reads back). */
  restart(): Promise<void>;
  /** Stops it and removes the data dir. */
  dispose(): Promise<void>;
}

/** A port the kernel just handed out on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no', '--protected-mode', 'yes'];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = async (): Promise<void> => {
      if (child.exitCode !== null) return reject(new Error(`redis-server exited ${child.exitCode}: ${stderr}`));
      if (await accepts(port)) return resolve(child);
      if (Date.now() - started > 10_000) return reject(new Error(`redis-server did not listen on ${port} within 10 s: ${stderr}`));
      setTimeout(() => void poll(), 25);
    };
    child.once('error', reject);
    void poll();
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts redis-server on a free 127.0.0.1 port with a fresh data dir, append-only with fsync on every write. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sinew-redis-'));
  let child = await launch(port, dir);
  // A test process that ends without dispose (a timeout, a crash) must not leave redis-server running.
  const orphan = () => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, 'SIGKILL');
  process.once('exit', orphan);
  const stop = async (signal: 'SIGKILL' | 'SIGTERM' = 'SIGTERM') => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, signal);
    await exited(child);
  };
  return {
    port,
    dir,
    get pid() {
      return child.pid ?? -1;
    },
    stop,
    restart: async () => {
      await stop('SIGKILL');
      child = await launch(port, dir);
    },
    dispose: async () => {
      process.off('exit', orphan);
      await stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
