import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderDeclaration, symbolicArgs } from '../src/declarations.js';
import { pred } from '../src/pred.js';

const names = (schema: z.ZodType) => Object.keys(symbolicArgs(schema));

describe('symbolicArgs: a placeholder per top-level field, through every wrapper', () => {
  it('names an object\'s fields, snake_cased, each its own placeholder', () => {
    expect(symbolicArgs(z.object({ blockName: z.string(), 'max-count': z.number() }))).toEqual({
      blockName: { placeholder: 'block_name' },
      'max-count': { placeholder: 'max_count' },
    });
  });

  it('takes the union of a union\'s options and of an intersection\'s sides, once each', () => {
    expect(names(z.union([z.object({ item: z.string() }), z.object({ item: z.string(), count: z.number() })]))).toEqual(['item', 'count']);
    expect(names(z.intersection(z.object({ item: z.string() }), z.object({ count: z.number(), item: z.string() })))).toEqual(['item', 'count']);
  });

  it('reads through a pipe (transform) and optional/default wrappers, and finds no field in a non-object', () => {
    expect(names(z.object({ at: z.number() }).transform((value) => value.at))).toEqual(['at']);
    expect(names(z.object({ at: z.number() }).optional().default({ at: 1 }))).toEqual(['at']);
    expect(names(z.string())).toEqual([]);
  });
});

describe('renderDeclaration', () => {
  it('renders predicates in the wire form, placeholders included', () => {
    expect(renderDeclaration(() => [pred.hasItem(pred.placeholder('item'), 2), pred.at({ x: 1.7, y: -0.2, z: 3 })], {})).toEqual(['has_item:<item>:2', 'at:1,-1,3']);
  });

  it('refuses a declaration that is not an array, or an element that is not a predicate, showing its start', () => {
    expect(() => renderDeclaration(() => 'has_item:log' as never, {})).toThrow(new TypeError('expected an array of predicates (pred.*), received string'));
    const long = { kind: 'nonsense', text: 'x'.repeat(300) };
    expect(() => renderDeclaration(() => [pred.foodRose(), long] as never, {})).toThrow(new TypeError(`[1]: not a predicate (build it with pred.*): ${JSON.stringify(long).slice(0, 120)}`));
    expect(() => renderDeclaration(() => [undefined] as never, {})).toThrow(new TypeError('[0]: not a predicate (build it with pred.*): undefined'));
  });
});

describe('pred positions', () => {
  it('floors coordinates and turns -0 into 0', () => {
    const at = pred.at({ x: -0.5 + 0.5, y: -0, z: 0.9 });
    expect(at).toEqual({ kind: 'at', position: { x: 0, y: 0, z: 0 } });
    expect(Object.is((at as { position: { y: number } }).position.y, 0)).toBe(true);
    const { position } = pred.blockAt({ x: -0, y: -0, z: -0 }, 'air') as { position: { x: number; y: number; z: number } };
    expect([position.x, position.y, position.z].map((value) => Object.is(value, 0))).toEqual([true, true, true]);
  });
});
