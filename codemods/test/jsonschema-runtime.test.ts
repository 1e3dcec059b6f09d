import { join } from 'node:path';
import { give } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from './helpers.js';
import { live, type Live } from './live.js';

const LEAVES = join(fixtures, 'jsonschema/leaves.ts');
let world: Live;

beforeAll(async () => {
  world = await live([LEAVES], {}, 'schemas', 'leaves.ts');
});
afterAll(() => world?.close());

describe('leaves that declare a JSON Schema, wrapped, on a real bot', () => {
  it('types every leaf from its declared schema and compiles against the contracts', () => {
    expect(world.result.report.wrapped).toBe(11);
    const generated = world.result.changes.filter((c) => c.kind === 'capabilities');
    expect(generated[0]!.after.match(/inputSchema: z\.fromJSONSchema\(/g)).toHaveLength(11);
    expect(world.typeErrors).toEqual([]);
  });

  it('say: the bot says it; an empty message breaks minLength and is invalid_args naming message', async () => {
    const heard = world.nextChat();
    await world.succeeds('say', { message: 'schema checked' });
    await expect(heard).resolves.toBe('schema checked');
    await world.refused('say', { message: '' }, 'message');
  });

  it('hold: holds the item; a destination outside the enum is invalid_args naming destination', async () => {
    await give(world.bot, 'golden_axe');
    await world.succeeds('hold', { item: 'golden_axe' });
    expect(world.bot.heldItem?.name).toBe('golden_axe');
    await world.refused('hold', { item: 'golden_axe', destination: 'belt' }, 'destination');
  });

  it('break_block: the block is gone; a key the schema does not declare is invalid_args naming it (objects are closed)', async () => {
    const target = await world.placeNear(1, 0, -2, 'dirt');
    await world.succeeds('break_block', { x: target.x, y: target.y, z: target.z });
    expect(world.bot.blockAt(target)?.name).toBe('air');
    const wrong = await world.step('break_block', { x: target.x, y: target.y, z: target.z, force: true });
    expect(wrong.failure?.code).toBe('invalid_args');
    expect(wrong.failure?.reason).toContain('unknown key `force` — known keys: x, y, z, forceLook');
  });

  it('keeps ranges and integers: y past the maximum and a fractional x are refused', async () => {
    const high = await world.step('break_block', { x: 0, y: 400, z: 0 });
    expect(high.failure?.code).toBe('invalid_args');
    expect(high.failure?.reason).toMatch(/→ at y\b/);
    const fraction = await world.step('break_block', { x: 0.5, y: 1, z: 0 });
    expect(fraction.failure?.reason).toMatch(/→ at x\b/);
  });
});
