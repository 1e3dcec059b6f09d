import { ConfigError } from '@sinew/executor-contracts';
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { give, placeTree, reset, setGameMode, setTime, startServer, type TestServer } from '../src/index.js';

// Every check here fails before a server starts or a bot is touched: the handles are plain objects.
const notAServer = { port: 0 } as unknown as TestServer;
const notABot = Object.freeze({ username: 'ghost' }) as unknown as Bot;

async function refusal(run: () => Promise<unknown>): Promise<ConfigError> {
  const error: unknown = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('a bad testkit option is the contracts ConfigError (issue 24)', () => {
  it('startServer names the nested field zod refused, with every issue', async () => {
    const error = await refusal(() => startServer({ hostileSpawning: { cap: 0 }, port: 70_000 }));
    expect(error).toMatchObject({ code: 'invalid_config', where: 'startServer' });
    expect(error.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining([['port'], ['hostileSpawning', 'cap']]));
    expect(error.issues.map((issue) => issue.path)).toContainEqual(error.path);
  });

  it('an unknown startServer option is refused by name, not ignored', async () => {
    const error = await refusal(() => startServer({ prot: 25_565 } as never));
    expect(error).toMatchObject({ code: 'invalid_config', where: 'startServer', path: [] });
    expect(error.issues[0]).toMatchObject({ code: 'unrecognized_keys' });
    expect(error.message).toContain('prot');
  });

  it.each([
    ['give', ['count'], () => give(notABot, 'stone', 2.5)],
    ['setGameMode', ['mode'], () => setGameMode(notABot, 'hardcore' as never)],
    ['setTime', ['ticks'], () => setTime(notAServer, -1)],
    ['placeTree', ['height'], () => placeTree(notAServer, { x: 0, y: 4, z: 0 }, { height: 17 })],
    ['testkit', ['server'], () => reset(notAServer)],
  ] as const)('%s refuses with where and the path of its argument %j', async (where, path, run) => {
    const error = await refusal(run);
    expect(error).toMatchObject({ code: 'invalid_config', where, path });
    expect(error.issues).toHaveLength(1);
    expect(error.message.startsWith(`${where}: ${path.join('.')}: `)).toBe(true);
  });
});
