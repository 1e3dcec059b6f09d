import { EventEmitter } from 'node:events';
import type { RunContext } from '@sinew/executor-contracts';
import minecraftData from 'minecraft-data';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { consumeFood, gather, type SinewBot } from '../src/index.js';

const registry = minecraftData('1.20.4');

/** A run context around a small fake body; the test aborts through `controller`. */
function contextFor(body: object, verb: string) {
  const controller = new AbortController();
  let now = 0;
  const ctx = {
    body: body as unknown as SinewBot,
    signal: controller.signal,
    blackboard: new Map(),
    log: { debug() {}, info() {}, warn() {}, error() {} },
    step: { planId: 'p', stepId: 's', verb, version: '1.0.0', attempt: 1 },
    progress() {},
    transition() {},
    now: () => (now += 10),
  } satisfies RunContext<SinewBot>;
  return { ctx, controller };
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
    const { ctx, controller } = contextFor(body, 'gather');
    abort = () => controller.abort();
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
    const { ctx, controller } = contextFor(body, 'consume_food');
    const result = consumeFood.run(ctx, consumeFood.inputSchema.parse({}));
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
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
    const { ctx, controller } = contextFor(body, 'consume_food');
    await expect(consumeFood.run(ctx, consumeFood.inputSchema.parse({}))).resolves.toMatchObject({ ok: true });
    controller.abort();
    expect(calls).toEqual(['consume']);
  });
});
