// The verbs of generated worlds, declared as another engineer is writing them in @sinew/capabilities (explore,
// mine, shear, hunt): schemas and declarations only, so the planners can be tested on a registry that has them.
import { createStandardRegistry } from '@sinew/capabilities';
import { defineCapability, pred, unverified, type CapabilityRegistry } from '@sinew/executor-contracts';
import { z } from 'zod';

const Animal = z.enum(['cow', 'pig', 'sheep', 'chicken']);
const wild = [
  defineCapability({
    name: 'explore',
    version: '0.1.0',
    description: 'find a block, biome or mob not in view',
    inputSchema: z.strictObject({ target: z.strictObject({ block: z.string().optional(), biome: z.string().optional(), mob: z.string().optional() }), maxRadius: z.number().int().positive().optional() }),
    expectedDurationMs: 30_000,
    effects: () => [pred.custom('in_view:<target>')],
    run: async () => {},
    acceptance: unverified('declarations only'),
  }),
  defineCapability({
    name: 'mine',
    version: '0.1.0',
    description: 'reach a depth or an ore and dig it',
    inputSchema: z.strictObject({ target: z.strictObject({ depth: z.number().int().optional(), ore: z.string().optional() }), count: z.number().int().positive().default(1) }),
    expectedDurationMs: 180_000,
    effects: () => [pred.hasItem(pred.placeholder('drop'))],
    run: async () => {},
    acceptance: unverified('declarations only'),
  }),
  defineCapability({
    name: 'shear',
    version: '0.1.0',
    description: 'shear sheep for wool',
    inputSchema: z.strictObject({ animal: z.literal('sheep').default('sheep'), count: z.number().int().positive().default(1) }),
    expectedDurationMs: 20_000,
    preconds: () => [pred.hasItem('shears')],
    effects: (args) => [pred.gained('white_wool', args.count)],
    run: async () => {},
    acceptance: unverified('declarations only'),
  }),
  defineCapability({
    name: 'hunt',
    version: '0.1.0',
    description: 'hunt animals for food and drops',
    inputSchema: z.strictObject({ animal: Animal, count: z.number().int().positive().default(1) }),
    expectedDurationMs: 30_000,
    effects: () => [pred.hasItem(pred.placeholder('drop'))],
    run: async () => {},
    acceptance: unverified('declarations only'),
  }),
];

/** The standard registry plus these declarations of explore, mine, shear and hunt where it has none of its own yet. */
export function wildRegistry(): CapabilityRegistry<unknown> {
  const registry = createStandardRegistry() as unknown as CapabilityRegistry<unknown>;
  return registry.registerAll(wild.filter((capability) => registry.get(capability.name) === undefined) as never);
}
