import { EventEmitter } from 'node:events';
import { ManualClock } from '@sinew/executor-contracts';
import { createTestRunContext } from '@sinew/bt-runtime/testing';
import minecraftData from 'minecraft-data';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { consumeFood, gather, type SinewBot } from '../src/index.js';

const registry = minecraftData('1.20.4');

/** A run context around a small fake body, on a fake clock; the test aborts it with `ctx.abort()`. */
function contextFor(body: object, verb: string) {
  return createTestRunContext({ body: body as unknown as SinewBot, clock: new ManualClock(), step: { verb } });
}

describe('abort handling', () => {
  it('gather does not start digging when aborted while equipping the tool', async () => {
    const log = { name: 'oak_log', position: new Vec3(1, 5, 0) };
    const axe = { name: 'wooden_axe', type: registry.itemsByName.wooden_axe!.id, count: 1 };
    const calls: string[] = [];
    let abort = () => {};
    const body = Object.assign(new EventEmitter(), {
      registry,
      entity: { position: new Vec3(0, 5, 0), onGround: true },
      heldItem: null,
      inventory: { items: () => [axe] },
      findBlocks: () => [log.position],
      blockAt: (position: Vec3) => (position.equals(log.position) ? log : { name: 'air', position }),
      pathfinder: { bestHarvestTool: () => axe, setGoal() {}, setMovements() {} },
      equip: async () => {
        calls.push('equip');
        abort(); // the executor aborts the attempt while the tool is being equipped
      },
      dig: async () => {
        calls.push('dig');
      },
      stopDigging: () => calls.push('stopDigging'),
      clearControlStates() {},
    });
    const ctx = contextFor(body, 'gather');
    abort = () => ctx.abort();
    await gather.run(ctx, gather.inputSchema.parse({ block: 'oak_log' }));
    expect(calls).toContain('equip');
    expect(calls).not.toContain('dig');
  });

  it('consume_food stops eating (deactivateItem) on abort and returns aborted at once', async () => {
    const bread = { name: 'bread', count: 1 };
    const calls: string[] = [];
    const body = {
      registry,
      food: 10,
      heldItem: bread,
      inventory: { items: () => [bread] },
      equip: async () => undefined,
      // Like a server that has not finished the eating animation yet: consume does not settle by itself.
      consume: () => {
        calls.push('consume');
        return new Promise<void>(() => undefined);
      },
      deactivateItem: () => calls.push('deactivateItem'),
    };
    const ctx = contextFor(body, 'consume_food');
    const result = consumeFood.run(ctx, consumeFood.inputSchema.parse({}));
    await new Promise((resolve) => setImmediate(resolve));
    ctx.abort();
    await expect(result).resolves.toMatchObject({ ok: false, code: 'aborted' });
    expect(calls).toEqual(['consume', 'deactivateItem']);
  }, 5_000);

  it('consume_food leaves no abort listener behind once eaten', async () => {
    const bread = { name: 'bread', count: 1 };
    const calls: string[] = [];
    const body = {
      registry,
      food: 10,
      heldItem: bread,
      inventory: { items: () => [bread] },
      equip: async () => undefined,
      consume: async () => {
        calls.push('consume');
      },
      deactivateItem: () => calls.push('deactivateItem'),
    };
    const ctx = contextFor(body, 'consume_food');
    await expect(consumeFood.run(ctx, consumeFood.inputSchema.parse({}))).resolves.toMatchObject({ ok: true });
    ctx.abort();
    expect(calls).toEqual(['consume']);
  });
});
