import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, defineCapability, RegistryError } from '../src/index.js';

const dig = (version: string) => defineCapability({ name: 'dig_block', version, description: 'dig', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted });

/** The code and message of what `act` throws. */
function refusal(act: () => unknown): { code?: unknown; message: string; name: string } {
  try {
    act();
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message, name: (error as Error).name };
  }
  throw new Error('expected a refusal');
}

describe('canaries', () => {
  it('refuses bad options, a verb with no stable version, a second canary and one not higher than the stable', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0'));
    expect(refusal(() => registry.registerCanary(dig('1.1.0'), { share: 1 }))).toMatchObject({ name: 'RegistryError', code: 'bad_canary', message: expect.stringMatching(/^dig_block: canary options:/) });
    expect(refusal(() => new CapabilityRegistry().registerCanary(dig('1.1.0')))).toMatchObject({ code: 'bad_canary', message: 'dig_block: a canary needs a stable version registered first' });
    expect(refusal(() => registry.registerCanary(dig('1.0.0')))).toMatchObject({ code: 'bad_canary', message: expect.stringContaining('canary 1.0.0 must be higher than the stable 1.0.0') });
    registry.registerCanary(dig('1.1.0'));
    expect(refusal(() => registry.registerCanary(dig('1.2.0')))).toMatchObject({ code: 'bad_canary', message: 'dig_block already has a canary (1.1.0)' });
    expect(refusal(() => new CapabilityRegistry().register(dig('2.0.0')).registerCanary(dig('1.5.0')))).toMatchObject({ code: 'bad_canary' });
  });

  it('resolves to the stable version during a trial, to the canary after promote, and never to a demoted one by default', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0')).registerCanary(dig('1.1.0'));
    const resolved = (range?: string) => {
      const resolution = registry.resolve('dig_block', range);
      return resolution.ok ? resolution.capability.version : resolution.reason;
    };
    expect([resolved(), resolved('^1.1.0'), registry.canary('dig_block')?.capability.version]).toEqual(['1.0.0', '1.1.0', '1.1.0']);
    expect(registry.demote('dig_block')?.version).toBe('1.1.0');
    expect([resolved(), resolved('^1.1.0'), registry.canary('dig_block')]).toEqual(['1.0.0', '1.1.0', undefined]);
    expect(registry.demote('dig_block')).toBeUndefined();
    expect(registry.promote('dig_block')).toBeUndefined();
    const promoted = new CapabilityRegistry().register(dig('1.0.0')).registerCanary(dig('1.1.0'));
    expect(promoted.promote('dig_block')?.version).toBe('1.1.0');
    expect(promoted.resolve('dig_block')).toMatchObject({ ok: true, capability: { version: '1.1.0' } });
  });

  it('names the versions it has when none satisfies a range, and refuses a range that is not semver', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0')).register(dig('1.2.0'));
    expect(registry.resolve('dig_block', '^3.0.0')).toMatchObject({ ok: false, reason: 'no_matching_version', message: 'no version of dig_block satisfies ^3.0.0 (have 1.2.0, 1.0.0)', available: ['1.2.0', '1.0.0'] });
    expect(registry.resolve('dig_block', 'not a range !!')).toMatchObject({ ok: false, reason: 'bad_range', message: '"not a range !!" is not a semver range', available: ['1.2.0', '1.0.0'] });
    expect(registry.resolve('nothing_here')).toMatchObject({ ok: false, reason: 'unknown_verb' });
  });
});

describe('register: what is not a capability', () => {
  it('refuses null, a non-object and a capability missing a function, naming what it can', () => {
    const registry = new CapabilityRegistry();
    expect(refusal(() => registry.register(null as never))).toMatchObject({ message: expect.stringContaining('register: expected a capability') });
    expect(refusal(() => registry.register('dig' as never))).toMatchObject({ message: expect.stringContaining('register: expected a capability') });
    expect(refusal(() => registry.register({ ...dig('1.0.0'), run: 'no' } as never)).message).toContain('dig_block');
    expect(refusal(() => registry.register({ ...dig('1.0.0'), run: 'no' } as never)).message).toContain('run: expected a function');
    expect(refusal(() => registry.register({ ...dig('1.0.0'), aliases: 'mine' } as never)).message).toContain('aliases: expected an array');
    expect(RegistryError.name).toBe('RegistryError');
  });
});
