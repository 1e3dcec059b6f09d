// The registry answers a verb without a range from a per-verb cache: every change to what the verb resolves to
// (a new version, a canary, its promotion or demotion, a failed canary registration) is seen by the next resolve.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';

const shear = (version: string, aliases: string[] = []) =>
  defineCapability({
    name: 'shear_sheep',
    version,
    description: `shears, v${version}`,
    inputSchema: z.object({ entity: z.number().int().nonnegative() }),
    run: async () => {},
    acceptance: () => accepted,
    aliases,
  });

const versionOf = (registry: CapabilityRegistry, verb: string, range?: string) => {
  const resolved = registry.resolve(verb, range);
  return resolved.ok ? resolved.capability.version : resolved.reason;
};

describe('the default resolution of a verb', () => {
  it('is one answer until the verb changes, and follows every change', () => {
    const registry = new CapabilityRegistry().register(shear('0.9.0', ['clip']));
    const first = registry.resolve('shear_sheep');
    expect(registry.resolve('shear_sheep')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    registry.register(shear('0.10.2'));
    expect(versionOf(registry, 'shear_sheep')).toBe('0.10.2');
    registry.registerCanary(shear('1.0.0-rc.1'), { share: 0.5 });
    expect(versionOf(registry, 'shear_sheep')).toBe('0.10.2');
    registry.promote('shear_sheep');
    expect(versionOf(registry, 'shear_sheep')).toBe('1.0.0-rc.1');
    registry.registerCanary(shear('1.1.0'));
    expect(versionOf(registry, 'shear_sheep')).toBe('1.0.0-rc.1');
    registry.demote('shear_sheep');
    expect(versionOf(registry, 'shear_sheep')).toBe('1.0.0-rc.1');
    expect(versionOf(registry, 'shear_sheep', '^1.1')).toBe('1.1.0');
    expect(versionOf(registry, 'shear_sheep', '>=2')).toBe('no_matching_version');
  });

  it('a canary whose registration failed leaves the verb resolving as before', () => {
    const milk = defineCapability({ name: 'milk_cow', version: '1.0.0', description: 'milks', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted });
    const registry = new CapabilityRegistry().register(shear('2.0.0')).register(shear('2.5.0')).register(milk);
    expect(versionOf(registry, 'shear_sheep')).toBe('2.5.0');
    // Its alias is another verb: the canary is refused after it was recorded, and forgotten again.
    expect(() => registry.registerCanary(shear('2.6.0', ['milk_cow']))).toThrow(/alias milk_cow/);
    expect(registry.canary('shear_sheep')).toBeUndefined();
    expect(versionOf(registry, 'shear_sheep')).toBe('2.5.0');
  });

  it('an alias is counted on every resolve, not only the first', () => {
    const registry = new CapabilityRegistry().register(shear('3.1.4', ['clip', 'trim_wool']));
    for (let i = 0; i < 3; i += 1) expect(registry.resolve('clip')).toMatchObject({ ok: true, alias: 'clip' });
    registry.resolve('trim_wool');
    registry.resolve('shear_sheep');
    expect(Object.fromEntries(registry.aliasUses())).toEqual({ clip: 3, trim_wool: 1 });
  });
});
