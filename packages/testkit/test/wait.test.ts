import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitUntil, type TestServer } from '../src/index.js';

// waitUntil counts the server's ticks: a condition the world makes true within the budget resolves true on the tick it
// holds; one that never holds resolves false after exactly that many ticks, however slow the ticks are.

describe('waitUntil', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const ticks = () => server.serv!.tickCount;
  /** The server's own tick listeners (extensions): a finished wait leaves no more than these. */
  let listenersBefore = 0;
  beforeAll(() => {
    listenersBefore = server.serv!.listenerCount('tick');
  });

  it('resolves true on the tick the condition holds, and at once when it already does', async () => {
    const from = ticks();
    expect(await waitUntil(server, () => ticks() >= from + 7, 20)).toBe(true);
    expect(ticks()).toBe(from + 7);
    let reads = 0;
    expect(await waitUntil(server, () => ((reads += 1), true), 1)).toBe(true);
    expect(reads).toBe(1);
  });

  it('resolves false after exactly the budget of ticks, reading the condition once more on the last', async () => {
    const from = ticks();
    let reads = 0;
    expect(await waitUntil(server, () => ((reads += 1), false), 5)).toBe(false);
    expect(ticks() - from).toBe(5);
    expect(reads).toBe(6); // once at the start, once per tick
    expect(server.serv!.listenerCount('tick')).toBe(listenersBefore);
  });

  it('rejects with what a throwing condition threw, and leaves no tick listener behind', async () => {
    const failure = new RangeError('no such block');
    let reads = 0;
    await expect(waitUntil(server, () => (++reads === 3 ? (() => { throw failure; })() : false), 10)).rejects.toBe(failure);
    expect(reads).toBe(3);
    expect(server.serv!.listenerCount('tick')).toBe(listenersBefore);
  });

  it('refuses a budget that is not a positive whole number of ticks, and a check that is not a function', () => {
    for (const budget of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => waitUntil(server, () => true, budget)).toThrow(expect.objectContaining({ code: 'invalid_config', message: expect.stringMatching(/^waitUntil: withinTicks: expected an integer > 0/) }));
    }
    expect(() => waitUntil(server, 'ready' as never, 5)).toThrow(expect.objectContaining({ code: 'invalid_config', message: 'waitUntil: check: expected a function, received string' }));
  });

  it('rejects server_stopped when the server stops while it waits (no tick would ever come)', async () => {
    const other = await startServer();
    const waiting = waitUntil(other, () => false, 100_000);
    await other.stop();
    await expect(waiting).rejects.toMatchObject({ code: 'server_stopped' });
  });

});
