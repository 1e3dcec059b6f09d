import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityRegistry, checkStep, defineCapability, precondMissing, unverified } from '@sinew/executor-contracts';

describe('contracts smoke', () => {
  const dig = defineCapability({
    name: 'dig_block',
    version: '1.0.0',
    description: 'dig',
    inputSchema: z.object({ x: z.number(), count: z.number().default(1) }),
    guard: (_ctx: { body: { tools: number } }, args) => (args.x > 0 ? { ok: true } : precondMissing(['has_item:pickaxe'])),
    run: async (_ctx, args) => {
      const n: number = args.count;
      void n;
    },
    acceptance: unverified(),
  });
  const registry = new CapabilityRegistry<{ tools: number }>().register(dig);

  it('resolves, parses and guards a step', () => {
    const result = checkStep(registry, { stepId: 's', type: 'dig_block', args: { x: -1 } }, { body: { tools: 0 } });
    expect(result.ok ? 'ok' : result.failure.code).toBe('precond_missing');
    const unknown = checkStep(registry, { stepId: 's', type: 'dig_blok', args: {} });
    expect(unknown.ok ? [] : unknown.failure.suggestions).toEqual(['dig_block']);
    expect(registry.manifest().capabilities[0]?.versions[0]?.acceptance).toBe('unverified');
  });
});
