import { afterEach, describe, expect, it } from 'vitest';
import { createBot, type Bot } from 'mineflayer';
import { connectBot, give, setBlock, setGameMode, startServer, GROUND_Y, type TestServer } from '../src/index.js';
import { Vec3 } from 'vec3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Active handles that would keep the process alive (sockets, servers, timers). */
const liveHandles = (): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === 'TCPServerWrap' || kind === 'TCPSocketWrap' || kind === 'Timeout') counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
};

describe('server lifecycle', () => {
  const started: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.stop()));
    delete process.env.SINEW_MC_HOST;
    delete process.env.SINEW_MC_PORT;
  });

  it('5 servers started and stopped in a row leave no sockets, servers or timers behind', async () => {
    const before = liveHandles();
    for (let i = 0; i < 5; i++) {
      const server = await startServer();
      const bot = await connectBot(server);
      await give(bot, 'stone', 1);
      await server.stop();
      await server.stop(); // idempotent
      expect(bot.entity === undefined || bot._client.socket.destroyed).toBe(true);
    }
    const leftOver = (): string[] =>
      Object.entries(liveHandles())
        .filter(([kind, n]) => n > (before[kind] ?? 0))
        .map(([kind, n]) => `${kind}: ${before[kind] ?? 0} before, ${n} after`);
    // closing sockets finish on the next loop turns; give them a moment, not a fixed sleep
    for (let i = 0; i < 20 && leftOver().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(leftOver()).toEqual([]);
  });

  it('stop() closes the server even when ending a client throws (a socket that broke mid-write), with every socket it accepted', async () => {
    const server = await startServer();
    // A bot of another process, as the fleet's workers are: stop() has no handle to quit it first.
    const bot = createBot({ host: server.host, port: server.port, username: 'broken', version: server.version, auth: 'offline' });
    await once(bot, 'spawn');
    const inner = server.serv!._server as unknown as { clients: Record<string, { end(reason: string): void }>; socketServer: NetServer };
    // flying-squid's kick on a socket that already failed throws from its serializer (seen in the fleet's kill test).
    for (const client of Object.values(inner.clients)) {
      client.end = () => {
        throw new Error('SizeOf error: the socket already failed');
      };
    }
    await server.stop();
    expect(inner.socketServer.listening).toBe(false);
    for (let i = 0; i < 20 && !bot._client.socket.destroyed; i++) await new Promise((r) => setTimeout(r, 50));
    expect(bot._client.socket.destroyed).toBe(true);
  });

  it('12 servers started and stopped in one fresh process add no listener that outlives its server', async () => {
    // A fresh process: the warning is printed once per process, so an earlier file in this worker could hide it.
    const script = fileURLToPath(new URL('./fixtures/many-servers.ts', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, '12'], { timeout: 45_000 });
    expect(stdout.trim()).toBe('stopped 12');
    expect(stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/);
  });

  it('10 bots connect to one server at once and all see each other in the player list', async () => {
    const server = await startServer();
    started.push(server);
    const bots: Bot[] = await Promise.all(Array.from({ length: 10 }, (_, i) => connectBot(server, { username: `crowd${i}` })));
    expect(bots.every((b) => b.entity !== undefined && b.health === 20)).toBe(true);
    expect(server.serv!.players).toHaveLength(10);
    const everyoneSeesEveryone = (): boolean =>
      bots.every((bot) => Object.keys(bot.players).length === 10 && Object.values(bot.entities).filter((e) => e.type === 'player').length === 10);
    for (let i = 0; i < 40 && !everyoneSeesEveryone(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(bots.map((bot) => `${Object.keys(bot.players).length}/${Object.values(bot.entities).filter((e) => e.type === 'player').length}`)).toEqual(Array(10).fill('10/10'));
  });

  it('a world dir keeps level, region and player files after stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sinew-testkit-'));
    try {
      const server = await startServer({ world: { dir } });
      const bot = await connectBot(server, { username: 'saver' });
      await setBlock(server, { x: 1, y: GROUND_Y + 1, z: 1 }, 'stone');
      expect(bot.blockAt(new Vec3(1, GROUND_Y + 1, 1))?.name).toBe('stone');
      await server.stop();
      const files = readdirSync(dir, { recursive: true }).map(String);
      expect(files).toContain('level.dat');
      expect(files.some((f) => f.startsWith('region') && f.endsWith('.mca'))).toBe(true);
      expect(files.some((f) => f.startsWith('playerdata') && f.endsWith('.dat'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listens on an explicit port, and a taken port is refused at once with a code', async () => {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await expect(startServer({ port })).rejects.toMatchObject({ code: 'invalid_config' });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const server = await startServer({ port });
    started.push(server);
    expect(server.port).toBe(port);
  });

  it('a stopped server refuses helpers with a code', async () => {
    const server = await startServer();
    await server.stop();
    await expect(connectBot(server)).rejects.toMatchObject({ code: 'server_stopped' });
    await expect(setBlock(server, { x: 0, y: 5, z: 0 }, 'stone')).rejects.toMatchObject({ code: 'server_stopped' });
  });

  it('SINEW_MC_HOST/PORT point startServer at an external server and helpers use chat commands', async () => {
    const real = await startServer();
    started.push(real);
    process.env.SINEW_MC_HOST = real.host;
    process.env.SINEW_MC_PORT = String(real.port);
    const external = await startServer();
    started.push(external);
    expect(external.external).toBe(true);
    expect(external.serv).toBeNull();
    expect(external.port).toBe(real.port);
    const bot = await connectBot(external, { username: 'visitor' });
    await give(bot, 'diamond', 3);
    const diamond = bot.registry.itemsByName.diamond!.id;
    // An external handle has no server ticks to count: up to 60 of the bot's physics ticks each.
    for (let ticks = 0; ticks < 60 && bot.inventory.count(diamond, null) < 3; ticks += 2) await bot.waitForTicks(2);
    expect(bot.inventory.count(diamond, null)).toBe(3);
    await setBlock(external, { x: 3, y: GROUND_Y + 1, z: 3 }, 'stone');
    for (let ticks = 0; ticks < 60 && bot.blockAt(new Vec3(3, GROUND_Y + 1, 3))?.name !== 'stone'; ticks += 2) await bot.waitForTicks(2);
    expect(bot.blockAt(new Vec3(3, GROUND_Y + 1, 3))?.name).toBe('stone');
    await setGameMode(bot, 'creative');
    expect(real.serv!.getPlayer('visitor')?.gameMode).toBe(1);
  });
});
