import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectExternal } from '../src/external.js';
import { startServer, type TestServer } from '../src/index.js';

describe('external mode command channel', () => {
  let server: TestServer;
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startServer();
    // A TCP server that accepts and never answers: a Minecraft server that hangs on login.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    await server?.stop();
  });

  it('an operator that never spawns is external_timeout, and the failure is not cached: the next command connects again', async () => {
    const handle = { host: '127.0.0.1', port: (silent.address() as AddressInfo).port, version: server.version } as TestServer;
    const control = connectExternal(handle, { timeoutMs: 200 });
    await expect(control.command('time set 1000')).rejects.toMatchObject({ code: 'external_timeout' });
    expect(sockets).toHaveLength(1);
    await expect(control.command('time set 1000')).rejects.toMatchObject({ code: 'external_timeout' });
    expect(sockets).toHaveLength(2);
    control.close();
  });

  it('waits for the feedback of each command; a red reply is external_command_failed naming the command and the reply', async () => {
    // flying-squid has no /seed. Its returned replies (errors) come a microtask after its direct ones, so the
    // probe must answer the same way to stay in order: a usage error of /time always does.
    const control = connectExternal(server, { timeoutMs: 10_000, probe: { command: 'time bogus', reply: /Usage: \/time/ } });
    try {
      const replies = await control.command('time set 1000');
      expect(replies.some((r) => r.startsWith('Time was changed from'))).toBe(true);
      expect(server.serv!.time).toBe(1000);
      const error = await control.command('nosuchcommand 1').then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: 'external_command_failed' });
      expect(String((error as Error).message)).toMatch(/\/nosuchcommand 1 failed: .*Command not found/);
      // A failure the caller expects (the world already was that way) is accepted.
      await expect(control.command('nosuchcommand 2', { accept: /Command not found/ })).resolves.toEqual([expect.stringContaining('Command not found')]);
    } finally {
      control.close();
    }
  });
});
