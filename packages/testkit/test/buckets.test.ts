import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { bucketTarget, type CellAt } from '../src/extensions/buckets.js';
import { connectBot, give, GROUND_Y, reset, setBlock, startServer, sync, teleport, type TestServer } from '../src/index.js';
import { embedded } from '../src/server.js';

const count = (bot: Bot, name: string): number => bot.inventory.count(bot.registry.itemsByName[name]!.id, null);
const blockName = (bot: Bot, x: number, y: number, z: number): string | undefined => bot.blockAt(new Vec3(x, y, z))?.name;

/** Gives empty buckets and holds them. */
async function holdBuckets(bot: Bot, count: number): Promise<void> {
  await give(bot, 'bucket', count);
  await bot.equip(bot.registry.itemsByName.bucket!.id, 'hand');
}

/** Looks at the middle of a cell and uses the held item, as a player right-clicking it; then waits until the server handled it. */
async function useAt(bot: Bot, cell: Vec3): Promise<void> {
  await bot.lookAt(cell.offset(0.5, 0.5, 0.5));
  bot.activateItem();
  await sync(bot);
}

describe('buckets fill from a fluid source the player looks at (vanilla 1.20.4 BucketItem.use)', () => {
  let server: TestServer;
  let bot: Bot;

  beforeAll(async () => {
    server = await startServer();
    bot = await connectBot(server, { username: 'filler' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
    await teleport(bot, { x: 0.5, y: GROUND_Y + 1, z: 0.5 });
  });

  it('a lone bucket looking at a water source two blocks off becomes a water_bucket, and the source is gone', async () => {
    await setBlock(server, { x: 2, y: GROUND_Y, z: 0 }, 'water');
    await holdBuckets(bot, 1);
    await useAt(bot, new Vec3(2, GROUND_Y, 0));
    expect(count(bot, 'water_bucket')).toBe(1);
    expect(count(bot, 'bucket')).toBe(0);
    expect(blockName(bot, 2, GROUND_Y, 0)).toBe('air');
  });

  it('flowing water does not stop the ray: the source behind it fills the bucket and the flowing block stays', async () => {
    const { serv } = embedded(server, 'test');
    const water = serv.registry.blocksByName.water!;
    // level 3: flowing; the source two cells further along the same line
    await serv.setBlock(serv.overworld, new Vec3(0, GROUND_Y, 2), water.minStateId + 3);
    await setBlock(server, { x: 0, y: GROUND_Y - 1, z: 3 }, 'water');
    await setBlock(server, { x: 0, y: GROUND_Y, z: 3 }, 'air');
    await holdBuckets(bot, 1);
    await useAt(bot, new Vec3(0, GROUND_Y - 1, 3));
    expect(count(bot, 'water_bucket')).toBe(1);
    expect(blockName(bot, 0, GROUND_Y - 1, 3)).toBe('air');
    expect(serv.registry.blocksByStateId[await serv.overworld.getBlockStateId(new Vec3(0, GROUND_Y, 2))]?.name).toBe('water');
  });

  it('a source behind a block, or past 5 blocks, is not taken; one in view then is (a stack of 3: 2 buckets and a water_bucket)', async () => {
    await setBlock(server, { x: -2, y: GROUND_Y, z: 0 }, 'water');
    await setBlock(server, { x: -1, y: GROUND_Y + 1, z: 0 }, 'cobblestone');
    await setBlock(server, { x: 0, y: GROUND_Y + 1, z: -6 }, 'water');
    await setBlock(server, { x: 2, y: GROUND_Y, z: -1 }, 'water');
    await holdBuckets(bot, 3);
    await useAt(bot, new Vec3(-2, GROUND_Y, 0));
    await useAt(bot, new Vec3(0, GROUND_Y + 1, -6));
    expect(count(bot, 'bucket')).toBe(3);
    expect(count(bot, 'water_bucket')).toBe(0);
    // positive control: the same stack, a source in view
    await useAt(bot, new Vec3(2, GROUND_Y, -1));
    expect(count(bot, 'bucket')).toBe(2);
    expect(count(bot, 'water_bucket')).toBe(1);
    expect([blockName(bot, -2, GROUND_Y, 0), blockName(bot, 0, GROUND_Y + 1, -6), blockName(bot, 2, GROUND_Y, -1)]).toEqual(['water', 'water', 'air']);
  });

  it('lava fills a bucket too, into a lava_bucket', async () => {
    await setBlock(server, { x: 1, y: GROUND_Y, z: 2 }, 'lava');
    await holdBuckets(bot, 1);
    await useAt(bot, new Vec3(1, GROUND_Y, 2));
    expect(count(bot, 'lava_bucket')).toBe(1);
    expect(blockName(bot, 1, GROUND_Y, 2)).toBe('air');
  });
});

describe('the bucket ray against a source', () => {
  // A pond one deep: water sources in y = 0, air above, stone around.
  const pond: CellAt = async (x, y, z) => {
    if (y === 0 && x >= 3 && x <= 5 && z >= -1 && z <= 1) return { name: 'water', level: 0 };
    if (y === 0 && x === 2) return { name: 'water', level: 7 };
    return { name: y < 1 ? 'stone' : 'air', level: 0 };
  };

  it('a ray grazing only the top ninth of a source cell (above its fluid shape) passes over it', async () => {
    // From (0.5, 1.95, 0.5), pitch down just enough to reach y = 0.95 at x = 5.4: inside cell (5, 0, 0) but above 8/9.
    const eyes = new Vec3(0.5, 1.95, 0.5);
    const pitch = (Math.atan2(1.0, 4.9) * 180) / Math.PI;
    expect(await bucketTarget(pond, eyes, { yaw: -90, pitch })).toBeNull();
    // a little steeper, the ray enters the fluid of the first source it crosses
    const steeper = (Math.atan2(1.6, 4.0) * 180) / Math.PI;
    expect(await bucketTarget(pond, eyes, { yaw: -90, pitch: steeper })).toEqual({ fluid: 'water', position: new Vec3(3, 0, 0) });
  });

  it('straight down onto flowing water over stone: nothing a bucket takes', async () => {
    expect(await bucketTarget(pond, new Vec3(2.5, 1.62, 0.5), { yaw: 0, pitch: 90 })).toBeNull();
  });
});
