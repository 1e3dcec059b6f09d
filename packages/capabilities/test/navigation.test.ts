import { connectBot, fill, give, setBlock } from '@sinew/testkit';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import type { ActuatorCommand } from '@sinew/bt-runtime';
import { instrumentBot } from '../src/index.js';
import { useWorld } from './world.js';

const world = useWorld();

describe('instrumentBot', () => {
  it('returns the same bot and reports actuator calls before they run', async () => {
    const { bot } = world;
    expect(instrumentBot(bot)).toBe(bot);
    const seen: ActuatorCommand[] = [];
    const stop = bot.sinew.onActuate((command) => seen.push(command));
    bot.setControlState('jump', true);
    bot.setControlState('jump', false);
    await bot.look(0, 0, true);
    bot.swingArm('right');
    stop();
    bot.swingArm('right');
    expect(seen.map((c) => c.command)).toEqual(['setControlState', 'setControlState', 'look', 'swingArm']);
    expect(seen[0]?.detail).toBe('jump=true');
  });

  it('reports pathfinder goals and the control states pathfinder drives', async () => {
    const { bot, server } = world;
    const commands = new Set<string>();
    const stop = bot.sinew.onActuate((command) => commands.add(command.command));
    const outcome = await world.step('navigate', { position: { x: server.spawn.x + 4, y: server.spawn.y, z: server.spawn.z } });
    stop();
    expect(outcome.status).toBe('succeeded');
    expect(commands).toContain('pathfinder.setGoal');
    expect(commands).toContain('setControlState');
  });
});

describe('navigate', () => {
  it('walks to a position and acceptance reads the position', async () => {
    const { bot, server } = world;
    const target = { x: server.spawn.x + 8, y: server.spawn.y, z: server.spawn.z - 5 };
    const commands: string[] = [];
    const stop = bot.sinew.onActuate(({ command }) => commands.push(command));
    const outcome = await world.step('navigate', { position: target, range: 1 });
    stop();
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    // The policy's TTFA deadline, not a wall-clock guess: a loaded machine must not flake this.
    expect(outcome.ttfaMs).toBeLessThan(world.executor.policy.ttfaMs);
    expect(commands.filter((c) => c.startsWith('pathfinder.'))).not.toHaveLength(0);
    expect(bot.entity.position.distanceTo(new Vec3(target.x + 0.5, target.y, target.z + 0.5))).toBeLessThanOrEqual(2);
  });

  it('walks to the nearest block of a kind', async () => {
    const { bot, server } = world;
    const log = server.spawn.offset(-7, 0, 3).floored();
    await setBlock(server, log, 'oak_log');
    const outcome = await world.step('navigate', { block: 'oak_log', range: 2 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(bot.entity.position.distanceTo(log.offset(0.5, 0, 0.5))).toBeLessThanOrEqual(3);
  });

  it('fails the guard when no block of the kind is in range', async () => {
    const outcome = await world.step('navigate', { block: 'diamond_block' });
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.code).toBe('guard_failed');
  });

  it('rejects args that name no target or two targets (invalid_args)', async () => {
    expect((await world.step('navigate', { range: 2 })).failure?.code).toBe('invalid_args');
    expect((await world.step('navigate', { block: 'stone', entity: 'zombie' })).failure?.code).toBe('invalid_args');
  });

  it('ends an unreachable goal with stuck, not a hang', async () => {
    const { server } = world;
    const centre = server.spawn.offset(12, 0, 0).floored();
    // A sealed bedrock box around the target: no path exists.
    await fill(server, centre.offset(-2, -1, -2), centre.offset(2, 3, 2), 'bedrock');
    await fill(server, centre.offset(-1, 0, -1), centre.offset(1, 2, 1), 'air');
    const started = Date.now();
    const outcome = await world.step('navigate', { position: { x: centre.x, y: centre.y, z: centre.z }, range: 0 });
    expect(outcome.status).toBe('failed');
    expect(['stuck', 'timeout']).toContain(outcome.failure?.code);
    expect(Date.now() - started).toBeLessThan(40_000);
  });
});

describe('pillar_up', () => {
  it('rises by the height, placing blocks underneath', async () => {
    const { bot } = world;
    await give(bot, 'dirt', 3);
    const startY = Math.floor(bot.entity.position.y);
    const outcome = await world.step('pillar_up', { height: 3 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(Math.floor(bot.entity.position.y)).toBe(startY + 3);
    expect(bot.blockAt(bot.entity.position.floored().offset(0, -1, 0))?.name).toBe('dirt');
  });

  it('jumps again when the server drops a placement without a word (no block update ever comes)', async () => {
    // flying-squid drops a placement silently when the feet it last saw are in the cell (under load its position update
    // and the placement are handled out of order); mineflayer waits 5 s for the update, past the 3 s stuck window.
    // Here the server's block interaction swallows the first placement the same way.
    const { bot, server } = world;
    await give(bot, 'dirt', 2);
    const startY = Math.floor(bot.entity.position.y);
    const serv = server.serv! as unknown as { interactWithBlock(input: unknown): Promise<boolean> };
    const interact = serv.interactWithBlock;
    let swallow = 1;
    serv.interactWithBlock = (input) => (swallow-- > 0 ? Promise.resolve(true) : interact.call(serv, input));
    try {
      const outcome = await world.step('pillar_up', { height: 2 });
      expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
      expect(outcome.observables).toMatchObject({ dropped: 1 });
    } finally {
      serv.interactWithBlock = interact;
    }
    expect(swallow).toBeLessThan(0); // the server saw a placement after the swallowed one
    expect(Math.floor(bot.entity.position.y)).toBe(startY + 2);
  });

  it('asks for scaffold blocks it does not have (precond_missing)', async () => {
    const outcome = await world.step('pillar_up', { height: 2 });
    expect(outcome.failure?.code).toBe('precond_missing');
    expect(outcome.failure?.missing).toEqual(['has_item:dirt:2']);
  });
});

describe('flee', () => {
  it('runs from a position until the distance is reached', async () => {
    const { bot, server } = world;
    const from = { x: server.spawn.x + 1, y: server.spawn.y, z: server.spawn.z };
    const outcome = await world.step('flee', { from, distance: 8 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(Math.hypot(bot.entity.position.x - from.x, bot.entity.position.z - from.z)).toBeGreaterThanOrEqual(8);
  });

  it('runs from a threat far below by the distance along the ground its acceptance reads', async () => {
    const { bot, server } = world;
    // A skeleton in a cave 9 blocks under the stairs: 4.4 blocks across already put it 10 blocks away in 3D.
    const from = { x: bot.entity.position.x + 1, y: server.spawn.y - 9, z: bot.entity.position.z };
    const outcome = await world.step('flee', { from, distance: 8 });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(Math.hypot(bot.entity.position.x - from.x, bot.entity.position.z - from.z)).toBeGreaterThanOrEqual(8);
  });

  it('fails the guard when there is nothing to flee from', async () => {
    const outcome = await world.step('flee', { entity: 'zombie' });
    expect(outcome.failure?.code).toBe('guard_failed');
  });
});

describe('chat', () => {
  it('sends a message and sees the server echo it', async () => {
    const outcome = await world.step('chat', { message: 'hello from sinew' });
    expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    expect(world.bot.sinew.chatLog.map(({ line }) => line)).toContain('<sinew> hello from sinew');
  });

  it('is not fooled by another player saying the same words (effects_unmet)', async () => {
    const { bot, server } = world;
    const other = await connectBot(server, { username: 'parrot' });
    try {
      // Ours comes out garbled (still an instrumented chat call); the parrot says the words.
      const chat = bot.chat.bind(bot);
      bot.chat = () => {
        chat('something else');
        other.chat('parrot words');
      };
      try {
        const outcome = await world.step('chat', { message: 'parrot words' });
        expect(outcome.failure?.code).toBe('effects_unmet');
      } finally {
        bot.chat = chat;
      }
      expect(bot.sinew.chatLog.map(({ line }) => line)).toContain('<parrot> parrot words');
    } finally {
      other.quit();
    }
  });

  it('rejects an empty message (invalid_args)', async () => {
    expect((await world.step('chat', { message: '' })).failure?.code).toBe('invalid_args');
  });
});
