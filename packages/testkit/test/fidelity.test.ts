import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { connectBot, fill, give, GROUND_Y, reset, setBlock, startServer, sync, teleport, waitUntil, type TestServer } from '../src/index.js';
import { digTicks } from '../src/extensions/digtime.js';
import type { DugBlock } from '../src/extensions/dug.js';

const Y = GROUND_Y + 1;
const idOf = (bot: Bot, name: string): number => bot.registry.itemsByName[name]!.id;
const count = (bot: Bot, name: string): number => bot.inventory.count(idOf(bot, name), null);

/** Item names lying on the ground within 4 blocks of the bot (server side) plus those in its inventory. */
function dropsSeen(server: TestServer, bot: Bot): string[] {
  const serv = server.serv!;
  const onGround = Object.values(serv.entities)
    .filter((e) => e.position.distanceTo(bot.entity.position) < 4)
    .map((e) => (e as unknown as { itemId?: number }).itemId)
    .filter((id): id is number => id !== undefined)
    .map((id) => serv.registry.items[id]!.name);
  return [...onGround, ...bot.inventory.items().map((i) => i.name)].sort();
}

async function blockNameOnServer(server: TestServer, pos: Vec3): Promise<string> {
  const serv = server.serv!;
  return serv.registry.blocks[await serv.overworld.getBlockType(pos)]!.name;
}

/** Digs with plain bot.dig, waits until the server has broken the block, and returns what dropped. */
async function digAndSeeDrops(server: TestServer, bot: Bot, pos: Vec3, tool?: string): Promise<string[]> {
  if (tool) await bot.equip(idOf(bot, tool), 'hand');
  const keep = bot.inventory.items().map((i) => i.name);
  await bot.dig(bot.blockAt(pos)!);
  // Within 60 server ticks (3 s of server time): the server's own block, read asynchronously.
  const end = server.serv!.tickCount + 60;
  while ((await blockNameOnServer(server, pos)) !== 'air' && server.serv!.tickCount < end) await new Promise((r) => setTimeout(r, 20));
  await sync(bot);
  const seen = dropsSeen(server, bot);
  for (const name of keep) seen.splice(seen.indexOf(name), 1);
  return seen;
}

/** Sends a raw start (and, after `waitMs`, a finish) for a block, as a client that times digs itself would. */
async function rawDig(bot: Bot, pos: Vec3, waitMs: number): Promise<void> {
  const location = { x: pos.x, y: pos.y, z: pos.z };
  bot._client.write('block_dig', { status: 0, location, face: 1, sequence: 1 });
  await new Promise((r) => setTimeout(r, waitMs));
  bot._client.write('block_dig', { status: 2, location, face: 1, sequence: 2 });
  await sync(bot);
  await sync(bot);
}

/** Holds up the event loop (the test process's, which the server shares) for `ms`, as a long collection or a slow callback does. */
function holdUpLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: no timer, no socket read
  }
}

describe('vanilla survival rules through a plain mineflayer bot', () => {
  let server: TestServer;
  const bots: Bot[] = [];

  beforeAll(async () => {
    server = await startServer();
    for (const name of ['miner1', 'miner2', 'miner3', 'miner4']) bots.push(await connectBot(server, { username: name }));
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await reset(server);
    // Each bot gets its own lane, 8 blocks apart, facing a block 2 east of it.
    for (const [i, bot] of bots.entries()) await teleport(bot, new Vec3(0.5, Y, 8 * i + 0.5));
  });

  it('harvest-tool rule: stone and coal ore by hand and iron ore with a wooden pickaxe break but drop nothing', async () => {
    const [hand, coalHand, woodOnIron, stonePickOnIron] = bots as [Bot, Bot, Bot, Bot];
    await setBlock(server, { x: 2, y: Y, z: 0 }, 'stone');
    await setBlock(server, { x: 2, y: Y, z: 8 }, 'coal_ore');
    await setBlock(server, { x: 2, y: Y, z: 16 }, 'iron_ore');
    await setBlock(server, { x: 2, y: Y, z: 24 }, 'iron_ore');
    await give(woodOnIron, 'wooden_pickaxe', 1);
    await give(stonePickOnIron, 'stone_pickaxe', 1);
    // In parallel: coal ore by hand alone takes 300 ticks (15 s).
    const [stone, coal, ironWood, ironStone] = await Promise.all([
      digAndSeeDrops(server, hand, new Vec3(2, Y, 0)),
      digAndSeeDrops(server, coalHand, new Vec3(2, Y, 8)),
      digAndSeeDrops(server, woodOnIron, new Vec3(2, Y, 16), 'wooden_pickaxe'),
      digAndSeeDrops(server, stonePickOnIron, new Vec3(2, Y, 24), 'stone_pickaxe'),
    ]);
    expect({ stone, coal, ironWood }).toEqual({ stone: [], coal: [], ironWood: [] });
    // Positive control: the right tier drops the loot.
    expect(ironStone).toEqual(['raw_iron']);
  });

  it('harvest-tool rule: the right tool drops the loot (wooden pickaxe on stone and coal ore, hand on a log)', async () => {
    const [a, b, c] = bots as [Bot, Bot, Bot];
    await setBlock(server, { x: 2, y: Y, z: 0 }, 'stone');
    await setBlock(server, { x: 2, y: Y, z: 8 }, 'coal_ore');
    await setBlock(server, { x: 2, y: Y, z: 16 }, 'oak_log');
    await give(a, 'wooden_pickaxe', 1);
    await give(b, 'wooden_pickaxe', 1);
    const drops = await Promise.all([
      digAndSeeDrops(server, a, new Vec3(2, Y, 0), 'wooden_pickaxe'),
      digAndSeeDrops(server, b, new Vec3(2, Y, 8), 'wooden_pickaxe'),
      digAndSeeDrops(server, c, new Vec3(2, Y, 16)),
    ]);
    expect(drops).toEqual([['cobblestone'], ['coal'], ['oak_log']]);
  });

  it('dig time follows the vanilla formula for the held tool', async () => {
    const bot = bots[0]!;
    const names = ['stone', 'iron_ore', 'obsidian', 'oak_log'];
    for (const [i, name] of names.entries()) await setBlock(server, { x: 2 + i, y: Y, z: 0 }, name);
    const ticks = (name: string, tool: string | null): number =>
      digTicks(bot.blockAt(new Vec3(2 + names.indexOf(name), Y, 0)) as unknown as DugBlock, tool ? idOf(bot, tool) : null);
    // minecraft.wiki (Breaking): stone 7.5 s by hand, 1.15 s with a wooden pickaxe; obsidian 250 s by hand, 9.4 s with diamond.
    expect(ticks('stone', null)).toBe(150);
    expect(ticks('stone', 'wooden_pickaxe')).toBe(23);
    expect(ticks('iron_ore', 'wooden_pickaxe')).toBe(150);
    expect(ticks('iron_ore', 'stone_pickaxe')).toBe(23);
    expect(ticks('obsidian', null)).toBe(5000);
    expect(ticks('obsidian', 'diamond_pickaxe')).toBe(188);
    expect(ticks('oak_log', null)).toBe(60);
  });

  it('dig time: a start and a finish in the same tick on obsidian or stone by hand are refused; the block stays', async () => {
    const bot = bots[0]!;
    await setBlock(server, { x: 2, y: Y, z: 0 }, 'obsidian');
    await setBlock(server, { x: 2, y: Y + 1, z: 0 }, 'stone');
    await rawDig(bot, new Vec3(2, Y, 0), 0);
    await rawDig(bot, new Vec3(2, Y + 1, 0), 0);
    expect(await blockNameOnServer(server, new Vec3(2, Y, 0))).toBe('obsidian');
    expect(await blockNameOnServer(server, new Vec3(2, Y + 1, 0))).toBe('stone');
    expect(bot.blockAt(new Vec3(2, Y + 1, 0))?.name).toBe('stone');
    expect(dropsSeen(server, bot)).toEqual([]);
  });

  it('dig time depends on the held tool: 1.2 s on stone is enough with a wooden pickaxe, not by hand', async () => {
    const [handBot, pickBot] = bots as [Bot, Bot];
    await setBlock(server, { x: 2, y: Y, z: 0 }, 'stone');
    await setBlock(server, { x: 2, y: Y, z: 8 }, 'stone');
    await give(pickBot, 'wooden_pickaxe', 1);
    await pickBot.equip(idOf(pickBot, 'wooden_pickaxe'), 'hand');
    await Promise.all([rawDig(handBot, new Vec3(2, Y, 0), 1_200), rawDig(pickBot, new Vec3(2, Y, 8), 1_200)]);
    expect(await blockNameOnServer(server, new Vec3(2, Y, 0))).toBe('stone');
    expect(handBot.blockAt(new Vec3(2, Y, 0))?.name).toBe('stone');
    expect(await blockNameOnServer(server, new Vec3(2, Y, 8))).toBe('air');
  });

  it('dig time counts from when the start may have arrived: a start read late (the shared event loop held up) is not charged to the client, an early finish still is', async () => {
    const [dirtBot, stoneBot] = bots as [Bot, Bot];
    await setBlock(server, { x: 2, y: Y, z: 0 }, 'dirt');
    await setBlock(server, { x: 2, y: Y, z: 8 }, 'stone');
    await waitUntil(server, () => dirtBot.blockAt(new Vec3(2, Y, 0))?.name === 'dirt', 40);
    // bot.dig times its 750 ms itself; the loop is held up 400 ms right after its start is written, before the server reads it.
    const client = dirtBot._client as unknown as { write(name: string, packet: { status?: number }): void };
    const write = client.write;
    client.write = function (this: unknown, name, packet) {
      write.call(this, name, packet);
      if (name === 'block_dig' && packet.status === 0) queueMicrotask(() => holdUpLoop(400));
    };
    try {
      await dirtBot.dig(dirtBot.blockAt(new Vec3(2, Y, 0))!);
    } finally {
      client.write = write;
    }
    await sync(dirtBot);
    await sync(dirtBot);
    expect(await blockNameOnServer(server, new Vec3(2, Y, 0)), 'a full-length dig whose start was read 400 ms late').toBe('air');
    expect(dropsSeen(server, dirtBot)).toContain('dirt');
    // Stone by hand needs 7.5 s: a start, the same hold-up, a finish at once is refused whatever the hold-up is credited.
    const location = { x: 2, y: Y, z: 8 };
    stoneBot._client.write('block_dig', { status: 0, location, face: 1, sequence: 1 });
    holdUpLoop(400);
    stoneBot._client.write('block_dig', { status: 2, location, face: 1, sequence: 2 });
    await sync(stoneBot);
    await sync(stoneBot);
    expect(await blockNameOnServer(server, new Vec3(2, Y, 8))).toBe('stone');
  });

  it('the dig is judged by the tool held when its finish was sent: switching tools at once for the next dig changes nothing', async () => {
    const bot = bots[0]!;
    await setBlock(server, { x: 2, y: Y, z: 0 }, 'stone');
    await give(bot, 'wooden_pickaxe', 1);
    await give(bot, 'dirt', 1);
    await bot.equip(idOf(bot, 'wooden_pickaxe'), 'hand');
    const location = { x: 2, y: Y, z: 0 };
    bot._client.write('block_dig', { status: 0, location, face: 1, sequence: 1 });
    await new Promise((r) => setTimeout(r, 1_200));
    bot._client.write('block_dig', { status: 2, location, face: 1, sequence: 2 });
    // Straight after the finish, before flying-squid reaches its dug hook: the hand holds dirt.
    await bot.equip(idOf(bot, 'dirt'), 'hand');
    await sync(bot);
    await sync(bot);
    expect(await blockNameOnServer(server, new Vec3(2, Y, 0))).toBe('air');
    expect(dropsSeen(server, bot)).toContain('cobblestone');
  });

  it('item pickup: a drop in a notch one block above head height is picked up, stack and all', async () => {
    const bot = bots[0]!;
    // A wall east of the bot with a notch at y = Y + 2 (one above head height); the drop rests on its floor.
    await fill(server, { x: 1, y: Y, z: -1 }, { x: 1, y: Y + 3, z: 1 }, 'stone');
    await setBlock(server, { x: 1, y: Y + 2, z: 0 }, 'air');
    const serv = server.serv!;
    serv.spawnObject(serv.registry.entitiesByName.item!.id, serv.overworld, new Vec3(1.5, Y + 2, 0.5), {
      itemId: idOf(bot, 'raw_iron'),
      itemCount: 3,
      pickupTime: 500,
    });
    expect(await waitUntil(server, () => count(bot, 'raw_iron') >= 3, 60)).toBe(true);
    expect(count(bot, 'raw_iron')).toBe(3);
  });

  it('item pickup: drops outside the vanilla box stay (two blocks above head height, or in a hole beside the feet)', async () => {
    const bot = bots[0]!;
    await fill(server, { x: 1, y: Y, z: -1 }, { x: 1, y: Y + 4, z: 1 }, 'stone');
    await setBlock(server, { x: 1, y: Y + 3, z: 0 }, 'air');
    await setBlock(server, { x: 0, y: GROUND_Y, z: 1 }, 'air');
    const serv = server.serv!;
    const item = serv.registry.entitiesByName.item!.id;
    serv.spawnObject(item, serv.overworld, new Vec3(1.5, Y + 3, 0.5), { itemId: idOf(bot, 'coal'), pickupTime: 500 });
    serv.spawnObject(item, serv.overworld, new Vec3(0.5, GROUND_Y, 1.5), { itemId: idOf(bot, 'coal'), pickupTime: 500 });
    // The hole one is 1.4 blocks from the feet (flying-squid's 1.75-block sphere took it); 1.5 s is 20 ticks past the delay.
    await new Promise((r) => setTimeout(r, 1_500));
    await sync(bot);
    expect(count(bot, 'coal')).toBe(0);
    expect(dropsSeen(server, bot)).toEqual(['coal', 'coal']);
  });
});
