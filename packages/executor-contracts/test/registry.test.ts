import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, defineCapability, ManifestSchema, RegistryError, unverified, type Capability } from '@sinew/executor-contracts';

function dig(version: string, extra: { aliases?: string[]; description?: string } = {}): Capability<unknown, unknown, { x: number }> {
  return defineCapability({
    name: 'dig_block',
    version,
    description: extra.description ?? `dig v${version}`,
    inputSchema: z.object({ x: z.number().int(), depth: z.number().default(1) }),
    run: async () => {},
    acceptance: () => accepted,
    ...(extra.aliases ? { aliases: extra.aliases } : {}),
  });
}

const chat = defineCapability({
  name: 'chat',
  version: '1.0.0',
  description: 'say something',
  inputSchema: z.object({ message: z.string().min(1) }),
  run: async () => {},
  acceptance: unverified('chat changes nothing observable'),
  safetyLevel: 'safe',
  preconds: ['connected'],
  effects: ['said:message'],
  expectedDurationMs: 200,
});

function registryError(fn: () => unknown): RegistryError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryError);
    return error as RegistryError;
  }
  throw new Error('expected a RegistryError');
}

describe('CapabilityRegistry', () => {
  it('rejects a duplicate name@version but keeps several versions side by side', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0')).register(dig('1.2.0'));
    const error = registryError(() => registry.register(dig('1.0.0')));
    expect(error.code).toBe('duplicate_capability');
    expect(error.message).toBe('dig_block@1.0.0 is already registered');
    registry.register(dig('2.0.0'));
    expect(registry.capabilities().map((c) => c.version)).toEqual(['2.0.0', '1.2.0', '1.0.0']);
    expect(registry.verbs()).toEqual(['dig_block']);
  });

  it('rejects a capability with a non-semver version (built by hand, not by defineCapability)', () => {
    const bad = { ...dig('1.0.0'), version: 'v-next' };
    expect(registryError(() => new CapabilityRegistry().register(bad)).code).toBe('bad_version');
  });

  it('resolves the highest version by default and the highest satisfying a range', () => {
    const registry = new CapabilityRegistry().registerAll([dig('1.0.0'), dig('2.1.0'), dig('1.4.2'), dig('2.0.0')]);
    const version = (range?: string) => {
      const r = registry.resolve('dig_block', range);
      return r.ok ? r.capability.version : r.reason;
    };
    expect(version()).toBe('2.1.0');
    expect(version('^1')).toBe('1.4.2');
    expect(version('~1.0')).toBe('1.0.0');
    expect(version('2.0.0')).toBe('2.0.0');
    expect(version('>=3')).toBe('no_matching_version');
    expect(version('^^banana')).toBe('bad_range');
    const miss = registry.resolve('dig_block', '>=3');
    expect(miss.ok ? undefined : miss.available).toEqual(['2.1.0', '2.0.0', '1.4.2', '1.0.0']);
    expect(miss.ok ? '' : miss.message).toContain('no version of dig_block satisfies >=3');
  });

  it('reports unknown verbs with the list of registered ones', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0')).register(chat);
    const r = registry.resolve('fly');
    expect(r).toEqual({ ok: false, reason: 'unknown_verb', message: 'no capability provides "fly"', available: ['chat', 'dig_block'] });
    expect(registry.get('fly')).toBeUndefined();
    expect(registry.has('fly')).toBe(false);
  });

  it('resolves deprecated aliases to the canonical verb and counts each use', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0', { aliases: ['mine_block', 'break_block'] }));
    expect(registry.has('mine_block')).toBe(true);
    const r = registry.resolve('mine_block');
    expect(r.ok && r.capability.name).toBe('dig_block');
    expect(r.ok && r.alias).toBe('mine_block');
    registry.resolve('mine_block');
    registry.get('break_block');
    registry.resolve('dig_block');
    expect(Object.fromEntries(registry.aliasUses())).toEqual({ mine_block: 2, break_block: 1 });
    expect(Object.fromEntries(registry.aliases())).toEqual({ break_block: 'dig_block', mine_block: 'dig_block' });
    expect(registry.verbs()).toEqual(['dig_block']);
  });

  it('lets a later version of the same verb keep its alias, but not another verb take it', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0', { aliases: ['mine_block'] }));
    registry.register(dig('2.0.0', { aliases: ['mine_block'] }));
    const clash = defineCapability({ ...chat, name: 'say', aliases: ['mine_block'], acceptance: unverified() });
    expect(registryError(() => registry.register(clash)).code).toBe('alias_conflict');
    const shadow = defineCapability({ ...chat, name: 'mine_block', acceptance: unverified() });
    expect(registryError(() => registry.register(shadow)).code).toBe('alias_conflict');
    const aliasOfExisting = defineCapability({ ...chat, name: 'say', aliases: ['dig_block'], acceptance: unverified() });
    expect(registryError(() => registry.register(aliasOfExisting)).message).toContain('alias dig_block of say');
    expect(registry.verbs()).toEqual(['dig_block']);
  });

  it('describes itself as a manifest with JSON Schema inputs', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0', { aliases: ['mine_block'] })).register(dig('1.1.0')).register(chat);
    const manifest = registry.manifest();
    expect(ManifestSchema.parse(manifest)).toEqual(manifest);
    expect(manifest.capabilities.map((c) => [c.name, c.aliases, c.versions.map((v) => v.version)])).toEqual([
      ['chat', [], ['1.0.0']],
      ['dig_block', ['mine_block'], ['1.1.0', '1.0.0']],
    ]);
    const chatEntry = manifest.capabilities[0]!.versions[0]!;
    expect(chatEntry).toMatchObject({
      acceptance: 'unverified',
      unverifiedReason: 'chat changes nothing observable',
      // Legacy wire strings that are no predicate are shown as user vocabulary.
      preconds: ['custom:connected'],
      effects: ['custom:said:message'],
      expectedDurationMs: 200,
      safetyLevel: 'safe',
      atomic: false,
      runner: 'function',
    });
    expect(chatEntry.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string', minLength: 1 } },
      required: ['message'],
    });
    const digEntry = manifest.capabilities[1]!.versions[0]!;
    expect(digEntry.acceptance).toBe('verified');
    expect(digEntry).not.toHaveProperty('unverifiedReason');
    // The input side: a defaulted field is optional for the planner.
    expect(digEntry.inputSchema.required).toEqual(['x']);
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
  });

  it('turns schemas zod cannot express in JSON Schema into permissive {} instead of throwing', () => {
    const when = defineCapability({
      name: 'wait_until',
      version: '1.0.0',
      description: 'wait',
      inputSchema: z.object({ at: z.date(), note: z.string().optional() }),
      run: async () => {},
      acceptance: () => accepted,
    });
    const schema = new CapabilityRegistry().register(when).manifest().capabilities[0]!.versions[0]!.inputSchema;
    expect(schema).toMatchObject({ type: 'object', properties: { at: {}, note: { type: 'string' } } });
  });

  it('offers one tool definition per verb, from its highest version', () => {
    const registry = new CapabilityRegistry().register(dig('1.0.0', { description: 'old' })).register(dig('1.3.0', { description: 'new' })).register(chat);
    const tools = registry.toolDefinitions();
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ['chat', 'say something'],
      ['dig_block', 'new'],
    ]);
    expect(tools[1]!.inputSchema).toMatchObject({ type: 'object', properties: { x: { type: 'integer' } } });
  });

  it('shows the model the version resolve() runs by default: never the canary on trial, never a demoted one', () => {
    // The canary renames `x` to `column`: a plan built from its schema would fail `invalid_args` on 1.0.0.
    const canary = defineCapability({
      name: 'dig_block',
      version: '2.0.0-rc.1',
      description: 'canary',
      inputSchema: z.object({ column: z.number().int() }),
      run: async () => {},
      acceptance: () => accepted,
    });
    const registry = new CapabilityRegistry().register(dig('1.0.0', { description: 'stable' })).registerCanary(canary, { share: 0.5 });
    const shown = () => registry.toolDefinitions().find((tool) => tool.name === 'dig_block')!;
    expect(shown().description).toBe('stable');
    expect(shown().inputSchema).toMatchObject({ properties: { x: { type: 'integer' } } });
    expect(registry.get('dig_block')?.description).toBe(shown().description);
    registry.demote('dig_block');
    expect(shown().description).toBe('stable');
    expect(registry.get('dig_block')?.description).toBe(shown().description);
    // Promoted, the canary is what resolve() runs, and what the model sees.
    const promoted = new CapabilityRegistry().register(dig('1.0.0', { description: 'stable' })).registerCanary(canary);
    promoted.promote('dig_block');
    expect(promoted.toolDefinitions().find((tool) => tool.name === 'dig_block')?.description).toBe('canary');
  });

  it('is recognized by brand, also for copies from another module instance', () => {
    expect(CapabilityRegistry.isRegistry(new CapabilityRegistry())).toBe(true);
    expect(CapabilityRegistry.isRegistry({ [Symbol.for('sinew.capability-registry')]: true })).toBe(true);
    expect(CapabilityRegistry.isRegistry({ verbs: () => [] })).toBe(false);
    expect(CapabilityRegistry.isRegistry(null)).toBe(false);
    expect(CapabilityRegistry.isRegistry('registry')).toBe(false);
  });
});
