import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, damage, fill, GROUND_Y, reset, setFood, setGameMode, startServer, teleport, waitUntil, type TestServer } from '../src/index.js';

describe('players, death, respawn and game modes', () => {
  let server: TestServer;
  let alice: Bot;

  beforeAll(async () => {
    server = await startServer();
    alice = await connectBot(server, { username: 'alice' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
  });

  it('two bots see each other as players with usernames, whoever joined first', async () => {
    const bob = await connectBot(server, { username: 'bob' });
    try {
      expect(await waitUntil(server, () => Object.values(bob.entities).some((e) => e.type === 'player' && e.username === 'alice'), 60)).toBe(true);
      expect(await waitUntil(server, () => Object.values(alice.entities).some((e) => e.type === 'player' && e.username === 'bob'), 60)).toBe(true);
      expect(Object.keys(bob.players).sort()).toEqual(['alice', 'bob']);
      expect(bob.players.alice?.entity?.username).toBe('alice');
      expect(alice.players.bob).toBeDefined();
      expect(bob.player?.username).toBe('bob');
      const aliceAsSeenByBob = Object.values(bob.entities).find((e) => e.username === 'alice');
      expect(aliceAsSeenByBob?.name).toBe('player');
    } finally {
      bob.quit();
    }
    expect(await waitUntil(server, () => alice.players.bob === undefined, 60)).toBe(true);
  });

  it('damage and setFood change what the bot sees', async () => {
    await damage(alice, 5);
    expect(alice.health).toBe(15);
    await setFood(alice, 7);
    expect(alice.food).toBe(7);
  });

  it('a killed bot respawns at the spawn point with full health', async () => {
    await teleport(alice, { x: 10.5, y: GROUND_Y + 1, z: 10.5 });
    const died = new Promise<void>((resolve) => alice.once('death', () => resolve()));
    await damage(alice, 25);
    await died;
    expect(await waitUntil(server, () => alice.health === 20 && (alice as Bot & { isAlive: boolean }).isAlive, 100)).toBe(true);
    expect(await waitUntil(server, () => alice.entity.position.distanceTo(server.spawn) < 1, 60)).toBe(true);
    expect(Number.isFinite(alice.entity.position.x)).toBe(true);
    expect(alice.food).toBe(20);
    // the world is there again and physics runs (mineflayer drops its chunks on this respawn)
    expect(await waitUntil(server, () => alice.blockAt(new Vec3(0, GROUND_Y, 0))?.name === 'grass_block', 60)).toBe(true);
    await alice.waitForTicks(2);
  });

  it('game-mode changes reach the bot and back', async () => {
    await setGameMode(alice, 'creative');
    expect(alice.game.gameMode).toBe('creative');
    await setGameMode(alice, 'adventure');
    expect(alice.game.gameMode).toBe('adventure');
    await setGameMode(alice, 'survival');
    expect(alice.game.gameMode).toBe('survival');
    await expect(setGameMode(alice, 'hardcore' as never)).rejects.toMatchObject({ code: 'invalid_config' });
  });

  it('falling more than 3 blocks hurts, a short drop does not', async () => {
    await fill(server, { x: 5, y: GROUND_Y + 1, z: 5 }, { x: 5, y: GROUND_Y + 1, z: 5 }, 'stone');
    await teleport(alice, { x: 5.5, y: GROUND_Y + 2, z: 5.5 });
    await alice.waitForTicks(5);
    alice.setControlState('forward', true);
    await alice.waitForTicks(10);
    alice.setControlState('forward', false);
    await alice.waitForTicks(10);
    expect(alice.health).toBe(20);

    await teleport(alice, { x: -5.5, y: GROUND_Y + 9, z: -5.5 });
    expect(await waitUntil(server, () => alice.health < 20, 80)).toBe(true);
    expect(alice.health).toBeGreaterThanOrEqual(14);
    expect(alice.entity.position.y).toBe(GROUND_Y + 1);
    expect(alice.blockAt(new Vec3(-6, GROUND_Y, -6))?.name).toBe('grass_block');
  });
});
