import { describe, expect, it } from 'vitest';
import { compareVersions, parseRange, parseVersion, satisfies } from '@sinew/executor-contracts';

describe('semver', () => {
  it('parses versions and rejects junk', () => {
    expect(parseVersion('1.2.3')).toEqual([1, 2, 3, '']);
    expect(parseVersion('v1.2.3-beta.1')).toEqual([1, 2, 3, 'beta.1']);
    expect(parseVersion('1.2')).toBeUndefined();
    expect(parseVersion('one')).toBeUndefined();
  });

  it('orders versions numerically, releases above their prereleases', () => {
    const sorted = ['1.10.0', '1.2.0', '2.0.0-rc.1', '2.0.0', '1.2.0-alpha', '0.9.9']
      .sort((a, b) => compareVersions(parseVersion(a)!, parseVersion(b)!));
    expect(sorted).toEqual(['0.9.9', '1.2.0-alpha', '1.2.0', '1.10.0', '2.0.0-rc.1', '2.0.0']);
  });

  it.each([
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '1.2.3', false],
    ['1.9.0', '^1.2.3', true],
    ['2.0.0', '^1.2.3', false],
    ['1.2.2', '^1.2.3', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.9.0', '~1', true],
    ['1.5.0', '1.x', true],
    ['2.0.0', '1.x', false],
    ['1.5.0', '1', true],
    ['3.1.4', '*', true],
    ['3.1.4', '', true],
    ['1.5.0', '>=1.2.0 <2.0.0', true],
    ['2.0.0', '>=1.2.0 <2.0.0', false],
    ['1.0.0', '>= 1.0.0', true],
    ['1.9.9', '<=1', true],
    ['2.0.0', '<=1', false],
    ['2.0.0', '>1', true],
    ['1.9.0', '>1', false],
    ['1.0.1', '>1.0.0', true],
    ['3.0.0', '1.x || >=3', true],
    ['2.0.0', '1.x || >=3', false],
  ])('%s satisfies %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('treats malformed ranges and versions as no match', () => {
    expect(parseRange('^banana')).toBeUndefined();
    expect(parseRange('>=1 <two')).toBeUndefined();
    expect(satisfies('1.0.0', 'nonsense')).toBe(false);
    expect(satisfies('not-a-version', '*')).toBe(false);
  });
});
