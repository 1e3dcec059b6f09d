import { describe, expect, it } from 'vitest';
import { locateVerb, scanVerbLiterals } from '../src/index.js';

// The gate's source scan on shapes people actually write: a JSON Schema's `type` beside nested objects and
// arrays, keys spaced oddly, objects held by schema keys or not, and text that is not an object at all.

const verbs = (...lines: string[]) => scanVerbLiterals(lines.join('\n'), 'plans.ts').map((found) => `${found.verb}@${found.line}`);

describe('a JSON Schema type is told apart from a verb by the object around it', () => {
  it('finds the enclosing object across nested objects and arrays that close before the type', () => {
    expect(verbs("const s = { enum: ['a', 'b'], meta: { a: 1 }, list: [{ b: 2 }], type: 'string' };")).toEqual([]);
  });

  it('reads only the object’s own level: a schema key inside a nested value does not count', () => {
    expect(verbs("const step = { type: 'number', extra: { minimum: 1 }, tags: ['enum:'] };")).toEqual(['number@1']);
  });

  it('reads the whole own level: a schema key after a nested object still counts', () => {
    expect(verbs("const s = { type: 'string', inner: { a: [1] }, enum: ['x'] };")).toEqual([]);
  });

  it('reads the own level only up to the object’s closing brace, not into the next sibling object', () => {
    expect(verbs("const pair = { a: { type: 'string' }, b: { enum: ['x'] } };")).toEqual(['string@1']);
  });

  it('an object starting the text is still found', () => {
    expect(verbs("{ type: 'string', enum: ['a'] }")).toEqual([]);
  });

  it('a type with no object around it is a verb whatever follows', () => {
    expect(verbs("type: 'string', enum: ['a']")).toEqual(['string@1']);
  });

  it('a verb is never judged by context, even beside a schema-like key', () => {
    expect(verbs("const step = { type: 'dig_block', description: 'the ore under the tree' };")).toEqual(['dig_block@1']);
  });

  it('an object keyed by something other than a schema key, in an object nobody holds, is a plan step', () => {
    expect(verbs("const plan = { step: { type: 'number' } };")).toEqual(['number@1']);
  });

  it('a key-less object inside a properties map is not a property schema', () => {
    expect(verbs("const tool = { properties: { ...field({ type: 'string' }) } };")).toEqual(['string@1']);
  });

  it('schema keys are recognised however the colon and bracket are spaced', () => {
    expect(verbs(
      "const a = { items : { type: 'string' } };",
      "const b = { items:{ type: 'number' } };",
      "const c = { anyOf:  [ { type: 'integer' } ] };",
      "const d = { anyOf: [ { type: 'boolean' } ] };",
    )).toEqual([]);
  });

  it('a type directly inside brackets (a TypeScript labeled tuple) has no object around it: a verb, whatever the brackets hold', () => {
    expect(verbs("type Row = [type: 'string', items: number];")).toEqual(['string@1']);
  });

  it('a type directly inside brackets is not judged by an object elsewhere in the text (here the one opening it)', () => {
    expect(verbs('[{ items: [] }].forEach(() => {});', "type Row = [type: 'number'];")).toEqual(['number@2']);
  });

  it('the backward search stops 4,000 characters before the type, and so does the forward read', () => {
    const pad = ' '.repeat(4_100);
    expect(verbs(`const far = { enum: [1], ${pad}type: 'string' };`)).toEqual(['string@1']);
    expect(verbs(`const late = { type: 'string', ${pad}enum: [1] };`)).toEqual(['string@1']);
  });
});

describe('locateVerb', () => {
  it('finds a literal in the first column', () => {
    expect(locateVerb("'fish'\n", 'fish')).toEqual({ line: 1, column: 1 });
  });
});
