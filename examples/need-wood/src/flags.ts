import { join } from 'node:path';
import { z } from 'zod';
import { DemoGoalSchema } from './story.js';

/** The demo's command-line flags, validated at the boundary. */
export const FlagsSchema = z.object({
  'keep-alive': z.boolean().default(false),
  port: z.coerce.number().int().min(0).max(65_535).default(9464),
  provenance: z.string().min(1).default(join('.sinew', 'need-wood-provenance.jsonl')),
  /** Unset: a fresh in-process memory each run (deterministic); a file keeps outcomes across runs. */
  memory: z.string().min(1).optional(),
  'no-repair': z.boolean().default(false),
  /** The pickaxe to make from an empty inventory. */
  goal: DemoGoalSchema.default('wooden_pickaxe'),
  /** Seed of the tech_tree world (stone and iron goals). */
  seed: z.coerce.number().int().min(0).max(0xffffffff).default(1),
});
