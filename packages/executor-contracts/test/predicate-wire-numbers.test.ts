import { describe, expect, it } from 'vitest';
import { parsePredicate } from '../src/index.js';

// The wire form of a predicate as a model or a hand-written plan gets it slightly wrong: numbers that JavaScript's
// Number() would read (exponents, padding), a kind left out before the colon, an assignment kind with nothing after
// it. Each is a refusal that names what was written, never a guess and never a throw.

describe('y: levels written the way Number() reads but the wire form does not', () => {
  it.each([
    ['an exponent rise', 'y:+1e3'],
    ['a rise with a space before it', 'y:+ 4'],
    ['a rise with a space after it', 'y:+4 '],
    ['an exponent floor', 'y:<=6e1'],
    ['a floor with a trailing space', 'y:<=-12 '],
  ])('%s is refused with the form expected', (_label, text) => {
    const parsed = parsePredicate(text);
    expect(parsed).toEqual({ ok: false, reason: `${JSON.stringify(text)}: expected y:+<n> with n ≥ 1, or y:<=<y> with y an integer` });
  });

  it('the plain forms still read as numbers', () => {
    expect(parsePredicate('y:+12')).toMatchObject({ ok: true, predicate: { kind: 'rose', blocks: 12 } });
    expect(parsePredicate('y:<=-40')).toMatchObject({ ok: true, predicate: { kind: 'below_y', y: -40 } });
  });
});

describe('a predicate with no kind before its colon', () => {
  it('names the empty kind it found, not the whole text', () => {
    const parsed = parsePredicate(':oak_log');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(/^":oak_log": unknown predicate kind "" \(known: has_item, /);
  });
});

describe('an assignment kind written without its colon', () => {
  it.each([
    ['block', 'block:<x>,<y>,<z>=<block>'],
    ['equipped', 'equipped:<destination>=<item>'],
  ])('%s alone is refused with its form, not thrown', (text, form) => {
    expect(parsePredicate(text)).toEqual({ ok: false, reason: `"${text}": expected ${form}` });
  });
});
