import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, defineCapability, type Capability } from '../src/index.js';

// The registry's answers at its edges: hand-built or missing capabilities, alias clashes, ranges that match a
// canary or a retired version, and the order of what it lists.

const smelt = (version: string, extra: { aliases?: string[]; expectedDurationMs?: number } = {}) =>
  defineCapability({
    name: 'smelt_item',
    version,
    description: `smelt v${version}`,
    inputSchema: z.object({ item: z.string() }),
    run: async () => {},
    acceptance: () => accepted,
    ...extra,
  });

/** The error `act` throws, reduced to what a caller reads. */
function thrown(act: () => unknown): { name: string; code: unknown; message: string } {
  try {
    act();
  } catch (error) {
    const { name, code, message } = error as Error & { code?: unknown };
    return { name, code, message };
  }
  throw new Error('expected a refusal');
}

const resolvedVersion = (registry: CapabilityRegistry, range?: string) => {
  const resolution = registry.resolve('smelt_item', range);
  return resolution.ok ? resolution.capability.version : resolution.reason;
};

describe('register refuses what it cannot run, with the reason', () => {
  it('null, an empty object and a capability whose version was edited to non-semver', () => {
    expect(thrown(() => new CapabilityRegistry().register(null as never))).toEqual({
      name: 'CapabilityDefinitionError',
      code: 'invalid_capability',
      message: 'capability ?: register: expected a capability from defineCapability',
    });
    expect(thrown(() => new CapabilityRegistry().register({} as never)).message).toBe(
      'capability ?: guard: expected a function, received undefined (build capabilities with defineCapability)',
    );
    const edited = { ...smelt('1.0.0'), version: 'latest' } as Capability<unknown>;
    expect(thrown(() => new CapabilityRegistry().register(edited))).toEqual({ name: 'RegistryError', code: 'bad_version', message: 'smelt_item: "latest" is not semver' });
  });

  it('a verb that is already an alias names the verb that owns it', () => {
    const registry = new CapabilityRegistry().register(smelt('1.0.0', { aliases: ['cook'] }));
    const cook = defineCapability({ name: 'cook', version: '1.0.0', description: 'cook', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted });
    expect(thrown(() => registry.register(cook))).toEqual({ name: 'RegistryError', code: 'alias_conflict', message: 'cook is already an alias of smelt_item' });
  });

  it('an alias taken by a verb names the verb; one taken as an alias names its owner', () => {
    const registry = new CapabilityRegistry()
      .register(defineCapability({ name: 'cook', version: '2.0.0', description: 'cook', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted, aliases: ['roast'] }));
    expect(thrown(() => registry.register(smelt('1.0.0', { aliases: ['cook'] }))).message).toBe('alias cook of smelt_item is already taken by cook');
    expect(thrown(() => registry.register(smelt('1.0.0', { aliases: ['roast'] }))).message).toBe('alias roast of smelt_item is already taken by cook');
  });

  it('isRegistry answers false for undefined, null, text and a look-alike', () => {
    expect([undefined, null, 'registry', { register() {} }].map((value) => CapabilityRegistry.isRegistry(value))).toEqual([false, false, false, false]);
    expect(CapabilityRegistry.isRegistry(new CapabilityRegistry())).toBe(true);
  });
});

describe('registerCanary with no capability at all', () => {
  it('is a bad_canary refusal, for bad options and for good ones', () => {
    const registry = new CapabilityRegistry().register(smelt('1.0.0'));
    expect(thrown(() => registry.registerCanary(null as never, { share: 3 }))).toMatchObject({ code: 'bad_canary', message: expect.stringMatching(/^undefined: canary options:/) });
    expect(thrown(() => registry.registerCanary(undefined as never))).toEqual({ name: 'RegistryError', code: 'bad_canary', message: 'undefined: a canary needs a stable version registered first' });
  });

  it('a canary whose registration fails is not left on trial', () => {
    const registry = new CapabilityRegistry()
      .register(smelt('1.0.0'))
      .register(defineCapability({ name: 'bake', version: '1.0.0', description: 'bake', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted }));
    expect(thrown(() => registry.registerCanary(smelt('1.1.0', { aliases: ['bake'] }))).code).toBe('alias_conflict');
    expect(registry.canary('smelt_item')).toBeUndefined();
    expect(registry.resolve('smelt_item', '1.1.0')).toMatchObject({ ok: false, reason: 'no_matching_version' });
  });
});

describe('a range prefers the version in service over a canary or a retired one that also matches', () => {
  it('during a trial, after a demotion, and after a promotion', () => {
    const registry = new CapabilityRegistry().register(smelt('1.0.0')).registerCanary(smelt('1.2.0'));
    expect([resolvedVersion(registry, '^1.0.0'), resolvedVersion(registry, '>=1.1.0')]).toEqual(['1.0.0', '1.2.0']);
    registry.demote('smelt_item');
    expect([resolvedVersion(registry, '^1.0.0'), resolvedVersion(registry, '1.2.0')]).toEqual(['1.0.0', '1.2.0']);
    const promoted = new CapabilityRegistry().register(smelt('1.0.0')).registerCanary(smelt('1.2.0'));
    promoted.promote('smelt_item');
    expect(resolvedVersion(promoted, '^1.0.0')).toBe('1.2.0');
  });
});

describe('listings are sorted and complete', () => {
  it('aliases() and the manifest list aliases alphabetically, whatever the order they were declared in', () => {
    const registry = new CapabilityRegistry().register(smelt('1.0.0', { aliases: ['roast', 'bake', 'fire'] }));
    expect([...registry.aliases().keys()]).toEqual(['bake', 'fire', 'roast']);
    expect(registry.manifest().capabilities[0]!.aliases).toEqual(['bake', 'fire', 'roast']);
  });

  it('capabilities() lists verbs sorted, each highest version first', () => {
    const registry = new CapabilityRegistry()
      .register(smelt('1.0.0'))
      .register(defineCapability({ name: 'bake', version: '0.1.0', description: 'bake', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted }))
      .register(smelt('1.10.0'));
    expect(registry.capabilities().map((cap) => `${cap.name}@${cap.version}`)).toEqual(['bake@0.1.0', 'smelt_item@1.10.0', 'smelt_item@1.0.0']);
  });

  it('onRegister sees each capability registered after it subscribed, until it unsubscribes', () => {
    const registry = new CapabilityRegistry().register(smelt('1.0.0'));
    const seen: string[] = [];
    const unsubscribe = registry.onRegister((cap) => seen.push(cap.version));
    registry.register(smelt('1.1.0'));
    unsubscribe();
    registry.register(smelt('1.2.0'));
    expect(seen).toEqual(['1.1.0']);
  });

  it('the manifest has an expectedDurationMs key only for versions that declared one', () => {
    const registry = new CapabilityRegistry().register(smelt('1.0.0')).register(smelt('2.0.0', { expectedDurationMs: 12_000 }));
    const [newer, older] = registry.manifest().capabilities[0]!.versions;
    expect([newer!.expectedDurationMs, Object.keys(older!).includes('expectedDurationMs')]).toEqual([12_000, false]);
  });

  it('a capability whose acceptance was taken away after registration shows as unverified', () => {
    const capability = smelt('1.0.0');
    const registry = new CapabilityRegistry().register(capability);
    (capability as { acceptance: unknown }).acceptance = undefined;
    expect(registry.manifest().capabilities[0]!.versions[0]).toMatchObject({ acceptance: 'unverified', unverifiedReason: 'no acceptance function' });
  });
});
