// A verb resolved with a version range first answers that range only: the default (no range) resolution that follows
// is still the highest version, not the ranged answer left in the per-verb cache.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, defineCapability } from '@sinew/executor-contracts';

const till = (version: string) =>
  defineCapability({ name: 'till_soil', version, description: `tills, v${version}`, inputSchema: z.strictObject({ at: z.tuple([z.number(), z.number(), z.number()]) }), run: async () => {}, acceptance: () => accepted });

describe('a ranged resolve before any default one', () => {
  it('leaves the default answer at the highest version', () => {
    const registry = new CapabilityRegistry().register(till('1.4.0')).register(till('2.0.1')).register(till('1.10.0'));
    const ranged = registry.resolve('till_soil', '~1.4');
    expect(ranged.ok && ranged.capability.version).toBe('1.4.0');
    const plain = registry.resolve('till_soil');
    expect(plain.ok && plain.capability.version).toBe('2.0.1');
    expect(registry.resolve('till_soil', '^1')).toMatchObject({ ok: true, capability: { version: '1.10.0' } });
    expect(registry.resolve('till_soil')).toBe(plain);
  });
});
