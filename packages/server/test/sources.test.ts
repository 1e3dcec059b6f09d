import { createReflex } from '@sinew/belief';
import type { Executor } from '@sinew/bt-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, http, StreamClient, TOKEN } from './helpers.js';

/** A bot as mineflayer shapes it: the fields the server reads, one of them a getter that throws. */
class Bot {
  username = 'probe';
  health = 18;
  food = 20;
  entity = { position: { x: 1.234, y: 64, z: -2.06 } };
  game = { dimension: 'overworld' };
  heldItem = { name: 'oak_log', count: 3 };
  inventory = { items: () => [{ name: 'oak_log', count: 3 }, { name: 'stick', count: 2 }, { name: 'oak_log', count: 1 }] };
  get broken(): never {
    throw new Error('unreadable');
  }
}

describe('event sources: the bot, the reflex', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  let stream: StreamClient;
  const bot = new Bot();

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    server = await serveSinew({ executor, bot, port: 0, token: TOKEN, limits: { botEventIntervalMs: 50 } });
    // From seq 0: the first sample may be published before this client attaches (the ring replays it).
    stream = new StreamClient(server.url, { token: TOKEN, since: 0 });
    await stream.opened;
  });
  afterAll(async () => {
    await stream.close();
    await server.close();
    await executor.close();
  });

  it('GET /api/bot/status reports health, food, position, dimension, held item and the inventory summed per item', async () => {
    const status = (await http(server.url, '/api/bot/status')).json();
    expect(status.bot).toEqual({
      username: 'probe',
      health: 18,
      food: 20,
      position: { x: 1.2, y: 64, z: -2.1 },
      dimension: 'overworld',
      heldItem: { name: 'oak_log', count: 3 },
      inventory: { oak_log: 4, stick: 2 },
    });
  });

  it('a field whose getter throws reads as null, never a 500', async () => {
    Object.defineProperty(bot, 'health', { get: () => { throw new Error('gone'); }, configurable: true });
    const res = await http(server.url, '/api/bot/status');
    expect(res.status).toBe(200);
    expect(res.json().bot).toMatchObject({ health: null, food: 20 });
    Object.defineProperty(bot, 'health', { value: 18, writable: true, configurable: true });
  });

  it('botEvent is sampled (rate-limited) and sent only when what it reports changed', async () => {
    await stream.waitFor((e) => e.type === 'botEvent');
    bot.entity.position.x = 5;
    const moved = await stream.waitFor((e) => e.type === 'botEvent' && (e.data as { position: { x: number } }).position.x === 5);
    await new Promise((resolve) => setTimeout(resolve, 300)); // six sampling periods without a change
    expect(stream.events.filter((e) => e.type === 'botEvent' && e.seq > moved.seq)).toEqual([]);
  });

  it('a reflex preemption becomes safety_emergency with the threat class and distance', async () => {
    const reflex = createReflex({ preemptor: executor, onEvent: server.reflexEvent });
    reflex.tick(7, [{ trackId: 3, cls: 'zombie', hostile: true, visibility: 'visible', predicted: { x: 4, y: 64, z: 0 }, distance: 3.5 }]);
    const emergency = await stream.waitFor((e) => e.type === 'safety_emergency');
    expect(emergency.data).toEqual({ class: 'zombie', distance: 3.5, trackId: 3, tickId: 7, action: 'flee', stepId: 'reflex-7-flee' });
    await reflex.idle();
  });
});
