import { CapabilityRegistry, defineCapability, effectsUnmet, accepted, precondMissing, guardOk } from '@sinew/executor-contracts';
import { z } from 'zod';
import { instrumentMethods, type ActuatorSource } from '../src/index.js';

/** A tiny world the fake body acts on: blocks by name, an inventory and a position. */
export interface World {
  readonly blocks: readonly string[];
  readonly inventory: Readonly<Record<string, number>>;
  readonly x: number;
}

/** A small real body: its methods change its own state and, once instrumented, emit actuator commands. */
export class FakeBody {
  blocks = new Set<string>(['log_1', 'log_2', 'log_3']);
  inventory: Record<string, number> = {};
  x = 0;
  /** Every actuator call, in order (what the body actually did). */
  readonly calls: string[] = [];

  dig(block: string): boolean {
    this.calls.push(`dig:${block}`);
    if (!this.blocks.delete(block)) return false;
    this.inventory.log = (this.inventory.log ?? 0) + 1;
    return true;
  }

  move(dx: number): void {
    this.calls.push(`move:${dx}`);
    this.x += dx;
  }

  craft(item: string, uses: Record<string, number>): void {
    this.calls.push(`craft:${item}`);
    for (const [name, count] of Object.entries(uses)) this.inventory[name] = (this.inventory[name] ?? 0) - count;
    this.inventory[item] = (this.inventory[item] ?? 0) + 1;
  }

  chat(message: string): void {
    this.calls.push(`chat:${message}`);
  }

  readonly #disconnectListeners = new Set<(info: { readonly reason: string }) => void>();

  /** The body contract's disconnect signal, in the namespace `instrumentMethods` adds `onActuate` to. */
  readonly sinew = {
    onDisconnect: (listener: (info: { readonly reason: string }) => void): (() => void) => {
      this.#disconnectListeners.add(listener);
      return () => this.#disconnectListeners.delete(listener);
    },
  };

  /** The connection drops (what mineflayer's `end`/`kicked` mean for a real bot). */
  disconnect(reason: string): void {
    for (const listener of [...this.#disconnectListeners]) listener({ reason });
  }

  snapshot(): World {
    return { blocks: [...this.blocks].sort(), inventory: { ...this.inventory }, x: this.x };
  }
}

export type Body = FakeBody & ActuatorSource;

export function fakeBody(): Body {
  return instrumentMethods(new FakeBody(), ['dig', 'move', 'craft', 'chat']);
}

export const defineFake = <S extends z.ZodType>(def: Parameters<typeof defineCapability<S, Body, World>>[0]) => defineCapability<S, Body, World>(def);

const observe = ({ body }: { body: Body }) => body.snapshot();

/** walker: walks one step every 100 ms until aborted (honours abort). */
export const walker = defineFake({
  name: 'walker',
  version: '1.0.0',
  description: 'walks until aborted',
  inputSchema: z.object({}),
  run: async (ctx) => {
    while (!ctx.signal.aborted) {
      ctx.body.move(1);
      await ctx.sleep(100);
    }
  },
  acceptance: () => accepted,
});

/** dig_block: removes a block and gains a log; acceptance reads the world. */
export const digBlock = defineFake({
  name: 'dig_block',
  version: '1.0.0',
  description: 'dig a block',
  inputSchema: z.object({ block: z.string() }),
  guard: ({ body }, { block }) => (body.blocks.has(block) ? guardOk : { ok: false, code: 'guard_failed', reason: `no block ${block}` }),
  run: async (ctx, { block }) => {
    ctx.body.dig(block);
  },
  observe,
  acceptance: (pre, post, { block }) => (pre.blocks.includes(block) && !post.blocks.includes(block) ? accepted : effectsUnmet([`removed:${block}`])),
  expectedDurationMs: 1000,
});

/** craft_item: needs the ingredients (precond_missing otherwise). */
export const craftItem = defineFake({
  name: 'craft_item',
  version: '1.0.0',
  description: 'craft an item',
  inputSchema: z.object({ item: z.enum(['stick', 'planks']) }),
  guard: ({ body }, { item }) => {
    const need = item === 'stick' ? 'planks' : 'log';
    return (body.inventory[need] ?? 0) >= 1 ? guardOk : precondMissing([`has_item:${need}`]);
  },
  run: async (ctx, { item }) => {
    ctx.body.craft(item, { [item === 'stick' ? 'planks' : 'log']: 1 });
  },
  observe,
  acceptance: (pre, post, { item }) => ((post.inventory[item] ?? 0) > (pre.inventory[item] ?? 0) ? accepted : effectsUnmet([`has_item:${item}`])),
});

export function registryWith(...capabilities: Parameters<CapabilityRegistry<Body>['register']>[0][]): CapabilityRegistry<Body> {
  const registry = new CapabilityRegistry<Body>();
  for (const capability of capabilities) registry.register(capability);
  return registry;
}
