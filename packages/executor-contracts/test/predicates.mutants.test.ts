import { describe, expect, it } from 'vitest';
import { parsePredicate } from '../src/predicates.js';

/** The longest predicate text parsePredicate reads (its module constant). */
const MAX_PREDICATE_LENGTH = 512;

const reasonOf = (text: unknown, templates = false) => {
  const parsed = parsePredicate(text, { templates });
  return parsed.ok ? undefined : parsed.reason;
};

describe('parsePredicate: the whole text must match', () => {
  it.each([
    ['a placeholder with text around it', 'near_block:x<block>', true],
    ['a placeholder followed by text', 'at:<target>x', true],
    ['an entity id with a prefix', 'hurt:-zombie#12', false],
    ['an entity id with a suffix', 'hurt:zombie#12x', false],
    ['a threat distance with a prefix', 'distance_from_threat:x>=4', false],
    ['a threat distance with a suffix', 'distance_from_threat:>=4 ', false],
    ['a rise with a suffix', 'y:+2m', false],
    ['a rise with a prefix', 'y:+x2', false],
  ])('refuses %s', (_name, text, templates) => {
    expect(parsePredicate(text, { templates }).ok).toBe(false);
  });

  it('reads an assignment at its last `=` and refuses one with an empty left side', () => {
    expect(parsePredicate('equipped:hand=stone_sword')).toEqual({ ok: true, predicate: { kind: 'equipped', destination: 'hand', item: 'stone_sword' } });
    expect(parsePredicate('equipped:=stone_sword').ok).toBe(false);
    expect(parsePredicate('block:1,2,3').ok).toBe(false);
  });

  it('shows the text in a refusal, clipped to 80 characters past that length', () => {
    const long = 'k'.repeat(81);
    expect(reasonOf(long)).toBe(`"${'k'.repeat(80)}…": unknown predicate kind "${'k'.repeat(40)}" (known: ${reasonOf('zz')?.split('(known: ')[1]}`);
    expect(reasonOf(`zz:${'b'.repeat(77)}`)).toMatch(new RegExp(`^${JSON.stringify(`zz:${'b'.repeat(77)}`)}: unknown predicate kind "zz"`));
  });

  it('refuses a text over MAX_PREDICATE_LENGTH and reads one of exactly that length', () => {
    const exact = `near_block:${'a'.repeat(MAX_PREDICATE_LENGTH - 11)}`;
    expect(exact.length).toBe(MAX_PREDICATE_LENGTH);
    expect(parsePredicate(exact).ok).toBe(true);
    expect(reasonOf(`${exact}a`)).toMatch(new RegExp(`: longer than ${MAX_PREDICATE_LENGTH} characters$`));
  });

  it('takes a text that starts with a colon as an empty kind, and a kind without a colon as having no rest', () => {
    expect(reasonOf(':rose')).toMatch(/^":rose": unknown predicate kind ""/);
    expect(parsePredicate('distance_from_threat')).toEqual({ ok: true, predicate: { kind: 'distance_from_threat' } });
    expect(parsePredicate('food:rose')).toEqual({ ok: true, predicate: { kind: 'food_rose' } });
  });
});
