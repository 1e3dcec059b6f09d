import { describe, expect, it } from 'vitest';
import { CapabilityRegistry, defineCapability, unverified } from '@sinew/executor-contracts';
import { z } from 'zod';
import { compareVersions, parseRange, parseVersion } from '../src/semver.js';

/** Whether `version` satisfies `range`; false on a malformed range or version. */
const satisfies = (version: string, range: string): boolean => parseRange(range)?.(version) ?? false;

describe('semver', () => {
  it('parses versions and rejects junk', () => {
    expect(parseVersion('1.2.3')).toMatchObject({ major: 1, minor: 2, patch: 3, prerelease: [] });
    expect(parseVersion('v1.2.3-beta.1')).toMatchObject({ major: 1, minor: 2, patch: 3, prerelease: ['beta', 1] });
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

  it.each([
    ['1.2.4-beta.1', '^1.2.3', false],
    ['2.0.0-rc.1', '<2.0.0', false],
    ['2.0.0-rc.1', '>=1.0.0', false],
    ['1.2.3-beta.2', '>=1.2.3-beta.1', true],
    ['1.2.3-beta.2', '^1.2.3-beta.1', true],
    ['1.2.4-beta.2', '^1.2.3-beta.1', false],
  ])('npm\'s prerelease rule: %s satisfies %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('the registry resolves a range to the highest release, never to a prerelease the range did not name', () => {
    const version = (v: string) =>
      defineCapability({ name: 'dig', version: v, description: 'dig', inputSchema: z.object({}), run: async () => undefined, acceptance: unverified() });
    const registry = new CapabilityRegistry().registerAll([version('1.2.0'), version('1.3.0-beta.1'), version('2.0.0-rc.1')]);
    expect(registry.resolve('dig', '^1.2.0')).toMatchObject({ ok: true, capability: { version: '1.2.0' } });
    expect(registry.resolve('dig', '^1.3.0-beta.1')).toMatchObject({ ok: true, capability: { version: '1.3.0-beta.1' } });
    expect(registry.resolve('dig', '>=2.0.0-rc.0')).toMatchObject({ ok: true, capability: { version: '2.0.0-rc.1' } });
  });
});
