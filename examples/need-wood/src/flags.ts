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
  /** Run the cognition loop through a day and a night instead of the one plan. */
  autonomous: z.boolean().default(false),
  /** Wall minutes of the autonomous run (only with --autonomous). */
  minutes: z.coerce.number().positive().max(120).optional(),
});

/** Flags of the one-plan demo that the autonomous run does not read: refused with --autonomous, never ignored. */
export const ONE_PLAN_FLAGS = ['keep-alive', 'provenance', 'memory', 'no-repair', 'goal', 'seed'] as const;

/** Which given flags do not fit the mode (raw: the flags as parsed, before defaults). */
export function misplacedFlags(raw: Record<string, unknown>): string[] {
  if (raw.autonomous === true) return ONE_PLAN_FLAGS.filter((flag) => raw[flag] !== undefined).map((flag) => `--${flag} is not read by --autonomous`);
  return raw.minutes !== undefined ? ['--minutes needs --autonomous'] : [];
}
