import { z } from 'zod';
import { BeliefConfigError, issuesOf } from '../errors.js';
import { ReflexConfigSchema, type ReflexConfigInput } from '../reflex/reflex.js';

const points = z.number().min(0).max(20);

/** The self-preservation thresholds: bands (enter below, release at or above), holds and bounds. */
export const ModesConfigSchema = z
  .strictObject({
    /** Low health engages below this (half-hearts, 0..20)… */
    healthBelow: points.default(8),
    /** …and releases at or above this (hysteresis). */
    healthReleaseAt: points.default(12),
    /** Health falling fast: at least this much lost within `healthDropWindowMs` engages too. */
    healthDrop: z.number().positive().max(20).default(6),
    healthDropWindowMs: z.number().int().positive().default(2_000),
    /** Hunger engages below this food level and releases at or above `foodReleaseAt`. */
    foodBelow: points.default(6),
    foodReleaseAt: points.default(14),
    /**
     * Eat to heal: hurt below this health with food under 18 (vanilla heals only from 18 up, fast at 20 with
     * saturation), the body eats when no hostile could reach it before the meal ends; 0 never. Sprinting and fighting
     * drain the food bar: a bot at 14 health and 17 food stays at 14 for good (the survival traces: 50 s at 14 among
     * the swarm), and the next pack finds it at low health, running instead of working.
     */
    eatToHealBelow: points.default(16),
    /** Drowning engages when the eyes are under water and the oxygen (0..20) is below this. */
    oxygenBelow: points.default(12),
    /** At low health, a hostile within this many blocks makes the bot run (or pillar) instead of eat. */
    dangerWithinBlocks: z.number().positive().default(10),
    /** Pillar up this high to get out of melee reach when low on health and cornered; 0 never pillars. */
    pillarHeight: z.number().int().min(0).max(8).default(3),
    /**
     * Low on health with every hostile near it unable to reach it (up a pillar), the body holds every plan step while
     * that lasts, this long at most (it heals meanwhile when fed): a plan step would walk it back down into reach (a
     * generated world's diamond mine resumed after each pillar until four pillars used up its resumes). It ends sooner
     * once health has not risen for 10 s (no food, no regeneration: waiting heals nothing). 0 never holds.
     */
    shelterMs: z.number().int().nonnegative().default(60_000),
    /** `escape_fluid.radius`. */
    escapeRadius: z.number().int().min(1).max(16).default(8),
    /** An emergency met by neither a preemption nor damage within this long of its onset counts as `no_damage`. */
    emergencyWindowMs: z.number().int().positive().default(10_000),
    /** After each preemption a mode waits this long before firing again (bounded holds). */
    holdMs: z.number().int().nonnegative().default(750),
    /** Preemptions per engagement (rising edge to release) before the mode gives up until it releases. */
    maxAttempts: z.number().int().positive().default(4),
    /** Defense lets a dig finish first when it ends within this long and before the nearest hostile can reach the body; 0 never waits. */
    protectDigMs: z.number().int().nonnegative().default(3_000),
    /**
     * At or above this health, a dig that ends within `protectDigMs` finishes first even if one hostile (no more) can
     * reach the body before it ends: a hit or two against the dig's progress, which an interruption throws away (a log
     * by hand is 3 s; a swarm that keeps coming leaves no 3 s without a hostile in reach). Above 20: never.
     */
    finishDigAtHealth: z.number().min(0).max(21).default(21),
    /** How fast a hostile is assumed to close in (a zombie chases at ~2.3–2.5 blocks/s)… */
    threatSpeedBlocksPerS: z.number().positive().default(2.5),
    /** …and from how far it hits (vanilla melee reach is under 2 blocks). */
    threatReachBlocks: z.number().nonnegative().default(2),
    /** Hostile classes defense ignores (e.g. a brave bot lets skeletons be). */
    ignoreClasses: z.array(z.string().min(1)).default([]),
    /** The defense reflex (hostiles by distance: flee, or fight when cornered). */
    defense: ReflexConfigSchema.prefault({}),
  })
  .refine((c) => c.healthReleaseAt > c.healthBelow, { message: 'healthReleaseAt must exceed healthBelow', path: ['healthReleaseAt'] })
  .refine((c) => c.foodReleaseAt > c.foodBelow, { message: 'foodReleaseAt must exceed foodBelow', path: ['foodReleaseAt'] });
export type ModesConfig = z.output<typeof ModesConfigSchema>;
export type ModesConfigInput = z.input<typeof ModesConfigSchema>;

/** Overrides on top of a profile: any config field; `defense` is merged key by key. */
export type ModesOverrides = Omit<ModesConfigInput, 'defense'> & { readonly defense?: ReflexConfigInput };

/** Named profiles: `cautious` runs early and eats early; `brave` fights sooner and runs late. */
export const MODE_PROFILES = {
  cautious: {
    healthBelow: 12,
    healthReleaseAt: 16,
    healthDrop: 4,
    foodBelow: 10,
    oxygenBelow: 14,
    dangerWithinBlocks: 14,
    eatToHealBelow: 18,
    defense: { fleeWithinBlocks: 8, releaseBeyondBlocks: 14, attackWithinBlocks: 1.5, maxFleesBeforeFight: 2 },
  },
  brave: {
    healthBelow: 5,
    healthReleaseAt: 8,
    healthDrop: 8,
    foodBelow: 4,
    eatToHealBelow: 14,
    oxygenBelow: 8,
    dangerWithinBlocks: 6,
    pillarHeight: 0,
    finishDigAtHealth: 14,
    defense: { fleeWithinBlocks: 5, releaseBeyondBlocks: 8, attackWithinBlocks: 4, maxFleesBeforeFight: 0 },
  },
} as const satisfies Record<string, ModesOverrides>;
/** A named modes profile (`cautious`, `brave`, …). */
export type ModeProfile = keyof typeof MODE_PROFILES;

/** The profile's values overlaid by `overrides` (defense merged key by key), validated; a bad value throws `BeliefConfigError`. */
export function resolveModesConfig(profile: ModeProfile | undefined, overrides: ModesOverrides = {}): ModesConfig {
  if (profile !== undefined && !Object.hasOwn(MODE_PROFILES, profile)) {
    throw new BeliefConfigError([{ path: ['profile'], message: `unknown profile "${String(profile)}" (known: ${Object.keys(MODE_PROFILES).join(', ')})` }]);
  }
  const base: ModesOverrides = profile ? MODE_PROFILES[profile] : {};
  const merged = { ...base, ...overrides, defense: { ...base.defense, ...overrides.defense } };
  const parsed = ModesConfigSchema.safeParse(merged);
  if (!parsed.success) throw new BeliefConfigError(issuesOf(parsed.error));
  return parsed.data;
}
