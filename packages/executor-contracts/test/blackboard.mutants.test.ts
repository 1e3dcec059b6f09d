import { describe, expect, it } from 'vitest';
import { blackboardKey, createBlackboard } from '../src/blackboard.js';
import { closestNames } from '../src/suggest.js';

describe('blackboardKey', () => {
  it('accepts dotted names of word characters and dashes, starting with a letter, and freezes the key', () => {
    for (const name of ['gather.target', 'x', 'Smelt-2.fuel_left.by-slot', 'a.b.c.d']) {
      const key = blackboardKey<number>(name);
      expect(key).toEqual({ name });
      expect(Object.isFrozen(key)).toBe(true);
    }
  });

  it.each([
    ['', '""'],
    ['2nd.try', '"2nd.try"'],
    ['_hidden', '"_hidden"'],
    ['gather.', '"gather."'],
    ['.target', '".target"'],
    ['gather..target', '"gather..target"'],
    ['gather target', '"gather target"'],
    ['gather.target\n', '"gather.target\\n"'],
    ['x\ny', '"x\\ny"'],
  ])('refuses %j with a TypeError naming it', (name, shown) => {
    expect(() => blackboardKey(name)).toThrow(new TypeError(`blackboardKey(name): expected a dotted name like "gather.target", received ${shown}`));
  });

  it('refuses a name that is not a string, naming what arrived (undefined included)', () => {
    expect(() => blackboardKey(42 as unknown as string)).toThrow('received 42');
    expect(() => blackboardKey(undefined as unknown as string)).toThrow('received undefined');
    expect(() => blackboardKey({ toString: () => 'gather.target' } as unknown as string)).toThrow(TypeError);
  });
});

describe('createBlackboard', () => {
  it('stores by key name: two keys with one name share the entry, other names do not see it', () => {
    const board = createBlackboard();
    const count = blackboardKey<number>('gather.count');
    const same = blackboardKey<number>('gather.count');
    const other = blackboardKey<number>('gather.total');
    expect(board.has(count)).toBe(false);
    expect(board.get(count)).toBeUndefined();
    expect(board.set(count, 3)).toBeUndefined();
    expect([board.get(same), board.has(same), board.get(other), board.has(other)]).toEqual([3, true, undefined, false]);
    board.set(same, 0);
    expect(board.get(count)).toBe(0);
    expect(board.delete(other)).toBe(false);
    expect(board.delete(count)).toBe(true);
    expect([board.has(same), board.delete(same)]).toEqual([false, false]);
  });

  it('keeps an entry whose value is undefined (has is true, get is undefined)', () => {
    const board = createBlackboard();
    const key = blackboardKey<string | undefined>('craft.note');
    board.set(key, undefined);
    expect([board.has(key), board.get(key)]).toEqual([true, undefined]);
  });

  it('gives each blackboard its own entries', () => {
    const key = blackboardKey<string>('walk.to');
    const first = createBlackboard();
    first.set(key, 'north');
    expect(createBlackboard().has(key)).toBe(false);
  });
});

describe('closestNames', () => {
  const verbs = ['dig_block', 'craft_item', 'place_block', 'smelt_item', 'goto', 'eat'];

  it('suggests names within two edits for a short name, nearest first', () => {
    expect(closestNames('got', verbs)).toEqual(['goto', 'eat']);
    expect(closestNames('dig_blok', verbs)).toEqual(['dig_block']);
    expect(closestNames('zzzzz', verbs)).toEqual([]);
  });

  it('allows a third of the length in edits for a long name, and no more', () => {
    // 'craft_itemmm' is 12 characters: 4 edits allowed; 'craft_item' is 2 away, 'smelt_item' 6.
    expect(closestNames('craft_itemmm', verbs)).toEqual(['craft_item']);
    // 9 characters: 3 edits; 'place_block' is 3 away (insert p, l; replace) but 'dig_block' is 4 away.
    expect(closestNames('lace_bloc', verbs)).toEqual(['place_block']);
    expect(closestNames('abcdefghi', ['abcdefxyz', 'abcdewxyz'])).toEqual(['abcdefxyz']);
  });

  it('breaks ties by name and returns at most three', () => {
    expect(closestNames('ab', ['ax', 'ay', 'aw', 'az', 'ab'])).toEqual(['ab', 'aw', 'ax']);
    expect(closestNames('cat', ['hat', 'bat', 'cut'])).toEqual(['bat', 'cut', 'hat']);
  });

  it('counts substitutions, insertions and deletions as one edit each', () => {
    expect(closestNames('abcdef', ['abcXYf', 'abXdef', 'abcdefg', 'abdef'])).toEqual(['abcdefg', 'abdef', 'abXdef']);
    expect(closestNames('abcdef', ['abcXYZ', 'abcXYf'])).toEqual(['abcXYf']);
  });

  it('compares only the first 64 characters of a very long name', () => {
    const long = `${'a'.repeat(64)}${'z'.repeat(1000)}`;
    expect(closestNames(long, ['a'.repeat(64)])).toEqual(['a'.repeat(64)]);
  });
});
