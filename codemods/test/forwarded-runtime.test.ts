import { join } from 'node:path';
import { give } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentShare, fixtures } from './helpers.js';
import { live, type Live } from './live.js';

const EXECUTOR = join(fixtures, 'dispatcher/executor.ts');
let world: Live;

beforeAll(async () => {
  world = await live([EXECUTOR], {}, 'forwarded', 'executor.ts');
});
afterAll(() => world?.close());

describe('a dispatcher whose cases hand the action to a method, wrapped, on a real bot', () => {
  it('wraps every case from the action type or the fields its method reads, and compiles', () => {
    expect({ wrapped: world.result.report.wrapped, skipped: world.result.report.skipped, unsafe: world.result.report.unsafe }).toEqual({ wrapped: 12, skipped: 0, unsafe: 0 });
    expect(argumentShare(world.result)).toEqual({ args: 25, unknown: 3 });
    expect(world.typeErrors).toEqual([]);
  });

  it('chat (reads action.parameters.message as string): says it; a number is invalid_args naming message', async () => {
    const heard = world.nextChat();
    await world.succeeds('chat', { message: 'routed by type' });
    await expect(heard).resolves.toBe('routed by type');
    await world.refused('chat', { message: 7 }, 'message');
  });

  it('equip (EquipAction declares its parameters): holds the item; a destination outside the union is invalid_args', async () => {
    await give(world.bot, 'wooden_sword');
    await world.succeeds('equip', { item: 'wooden_sword' });
    expect(world.bot.heldItem?.name).toBe('wooden_sword');
    await world.refused('equip', { item: 'wooden_sword', destination: 'belt' }, 'destination');
  });

  it('dig (reads x, y, z as number): the block is gone; a missing z is invalid_args naming z', async () => {
    const target = await world.placeNear(-1, 0, 2, 'dirt');
    await world.succeeds('dig', { x: target.x, y: target.y, z: target.z });
    expect(world.bot.blockAt(target)?.name).toBe('air');
    await world.refused('dig', { x: target.x, y: target.y }, 'z');
  });
});
