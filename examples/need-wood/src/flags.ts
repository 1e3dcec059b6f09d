import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { recipeBook } from '@sinew/planners/minecraft';
import { z } from 'zod';
import { WorldKindSchema } from './story.js';

const book = recipeBook();
/** An item of the server's version, by its Minecraft name. */
const ItemName = z
  .string()
  .regex(/^[a-z0-9_]+$/, 'an item name like iron_pickaxe')
  .refine((name) => book.isItem(name), { error: (issue) => `no item ${JSON.stringify(issue.input)} in Minecraft ${book.version}` });

/** `item=n,item=n` → { item: n }: a starting inventory, every item known and every count a positive integer. */
export const InventorySchema = z
  .string()
  .transform((text) => text.split(',').map((part) => part.trim()).filter(Boolean).map((part) => part.split('=')))
  .pipe(z.array(z.tuple([ItemName, z.coerce.number<string>().int().min(1).max(2_304)], { error: 'each entry is item=count' })))
  .transform((entries) => {
    const inventory: Record<string, number> = {};
    for (const [item, count] of entries) inventory[item] = (inventory[item] ?? 0) + count;
    return inventory;
  });

/** The demo's command-line flags, validated at the boundary. */
export const FlagsSchema = z.object({
  'keep-alive': z.boolean().default(false),
  port: z.coerce.number().int().min(0).max(65_535).default(9464),
  provenance: z.string().min(1).default(join('.sinew', 'need-wood-provenance.jsonl')),
  /** Unset: a fresh in-process memory each run (deterministic); a file keeps outcomes across runs. */
  memory: z.string().min(1).optional(),
  'no-repair': z.boolean().default(false),
  /** The item to obtain (default: a wooden pickaxe, the need-wood story). */
  goal: ItemName.default('wooden_pickaxe'),
  /** How many of it. */
  count: z.coerce.number().int().min(1).max(2_304).default(1),
  /** What the bot holds before the plan: `item=n,item=n`. */
  inventory: InventorySchema.optional(),
  /** `placed` (trees, the seeded tech_tree world) or `terrain` (a generated world of that seed). */
  world: WorldKindSchema.default('placed'),
  /** Seed of the world (the tech_tree world's, or the generated terrain's). */
  seed: z.coerce.number().int().min(0).max(0xffffffff).default(1),
  /** The plan's time limit in seconds (past it the plan ends `timeout`); default none. */
  'time-limit': z.coerce.number().int().min(1).max(2_000_000).optional(),
  /** No hostile spawning at night (on by default in a generated world). */
  peaceful: z.boolean().default(false),
  /** Run the cognition loop through a day and a night instead of the one plan. */
  autonomous: z.boolean().default(false),
  /** Wall minutes of the autonomous run (only with --autonomous). */
  minutes: z.coerce.number().positive().max(120).optional(),
});

/** Flags of the one-plan demo that the autonomous run does not read: refused with --autonomous, never ignored. */
export const ONE_PLAN_FLAGS = ['keep-alive', 'provenance', 'memory', 'no-repair', 'goal', 'count', 'inventory', 'world', 'seed', 'peaceful', 'time-limit'] as const;

/** Which given flags do not fit the mode (raw: the flags as parsed, before defaults). */
export function misplacedFlags(raw: Record<string, unknown>): string[] {
  if (raw.autonomous === true) return ONE_PLAN_FLAGS.filter((flag) => raw[flag] !== undefined).map((flag) => `--${flag} is not read by --autonomous`);
  const misplaced = raw.minutes !== undefined ? ['--minutes needs --autonomous'] : [];
  if (raw.peaceful !== undefined && raw.world !== 'terrain') misplaced.push('--peaceful needs --world terrain (the placed worlds have no hostiles)');
  return misplaced;
}

/** How to call the demo: printed with every refused flag. */
export const USAGE = [
  'usage: npm run demo -- [--goal <item>] [--count <n>] [--inventory <item=n,…>] [--world placed|terrain] [--seed <n>] [--peaceful] [--time-limit <s>]',
  '                       [--port <0-65535>] [--keep-alive] [--provenance <file.jsonl>] [--memory <file.json>] [--no-repair]',
  '       npm run demo -- --autonomous [--minutes <n>] [--port <0-65535>]',
].join('\n');

const STRING_FLAGS = ['port', 'provenance', 'memory', 'goal', 'count', 'inventory', 'world', 'seed', 'time-limit', 'minutes'] as const;
const BOOLEAN_FLAGS = ['keep-alive', 'no-repair', 'peaceful', 'autonomous'] as const;
const OPTIONS = Object.fromEntries([
  ...STRING_FLAGS.map((flag) => [flag, { type: 'string' as const }]),
  ...BOOLEAN_FLAGS.map((flag) => [flag, { type: 'boolean' as const }]),
]) as Record<(typeof STRING_FLAGS)[number], { type: 'string' }> & Record<(typeof BOOLEAN_FLAGS)[number], { type: 'boolean' }>;

/** Parses and validates the command line: the flags, or a message saying what is wrong (unknown flags included). */
export function parseFlags(argv: readonly string[]): { ok: true; flags: z.output<typeof FlagsSchema> } | { ok: false; message: string } {
  let raw: Record<string, unknown>;
  try {
    raw = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const flags = FlagsSchema.strict().safeParse(raw);
  if (!flags.success) return { ok: false, message: `invalid flags:\n${z.prettifyError(flags.error)}` };
  const misplaced = misplacedFlags(raw);
  if (misplaced.length > 0) return { ok: false, message: `invalid flags: ${misplaced.join('; ')}` };
  return { ok: true, flags: flags.data };
}
