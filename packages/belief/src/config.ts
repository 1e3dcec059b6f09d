import { z } from 'zod';

const ticks = z.number().int().positive();
const blocks = z.number().positive().finite();
const permille = z.number().int().min(0).max(1000);

/**
 * Every constant of the Belief Bus, validated once when the bus is built. Distances are in blocks
 * (converted to integer units internally), durations in ingest ticks (never milliseconds).
 */
export const BeliefConfigSchema = z
  .object({
    /** Stream identity put on every message; keep it deterministic for replay. */
    streamId: z.string().min(1).max(128).default('belief'),
    /** Integer position units per block: evidence is rounded to 1/unitsPerBlock before anything else. */
    unitsPerBlock: z.number().int().min(1).max(1024).default(16),
    /** Hard cap on tracks (visible + inferred + lost); eviction keeps the set at or below it. */
    trackCap: z.number().int().min(1).max(100_000).default(64),
    /** At most this many tracks are created per tick (bounded creation under overload). */
    maxNewTracksPerTick: z.number().int().min(1).max(100_000).default(16),
    /** Association gate around the predicted position, before speed allowance. */
    gateBaseBlocks: blocks.default(1.5),
    /** Fastest plausible entity speed; widens the gate by this much per unseen tick. */
    maxSpeedBlocksPerTick: blocks.default(1.5),
    /** The gate never grows beyond this. */
    gateMaxBlocks: blocks.default(12),
    /** Velocity extrapolation stops after this many unseen ticks. */
    maxPredictTicks: ticks.default(5),
    /** Unseen for this many ticks: inferred → lost (and leaves the published view). */
    lostAfterTicks: ticks.default(10),
    /** Lost tracks are kept this long for reacquisition, then forgotten. */
    forgetAfterTicks: ticks.default(50),
    /** Existence confidence (permille) lost per unseen tick. */
    confidenceDecayPerTick: permille.default(60),
    /** Class confidence (permille) gained per consistent observation. */
    classGain: permille.default(250),
    /** Class confidence lost per unseen tick (drift toward unknown). */
    classDecayPerTick: permille.default(40),
    /** Class becomes `unknown` below this confidence … */
    classUnknownBelow: permille.default(300),
    /** … and known again only at or above this one (hysteresis). */
    classKnownAtOrAbove: permille.default(500),
    /** Width of a distance bucket. */
    distanceBucketBlocks: blocks.default(4),
    /** A distance must pass a bucket edge by this much to change bucket after warmup. */
    distanceHysteresisBlocks: z.number().nonnegative().finite().default(0.75),
    /** Hostiles within this radius have a threat score > 0. */
    threatRadiusBlocks: blocks.default(16),
    /** Threat flag turns on at or above this score (permille) … */
    threatOn: permille.default(600),
    /** … and off at or below this one. */
    threatOff: permille.default(400),
    /** Ticks after creation during which a track's events are unfiltered (no hysteresis/cooldown); the first emission after it settles the published view. */
    warmupTicks: ticks.default(10),
    /** After warmup, at most one distance_changed per track per this many ticks. */
    cooldownTicks: ticks.default(25),
    /** Deltas are emitted every this many ticks (5 ticks of 200 ms = 1 Hz). */
    emitEveryTicks: ticks.default(5),
    /** A snapshot is emitted on the first emission and then every this many ticks. */
    snapshotEveryTicks: ticks.default(50),
    /** At most this many deltas per emission; the rest wait (coalesced per track). */
    maxDeltasPerEmission: z.number().int().min(1).max(10_000).default(16),
    /** Hazard cells are this wide. */
    hazardCellBlocks: blocks.default(8),
    /** At most this many hazard regions. */
    maxHazardRegions: z.number().int().min(1).max(1000).default(16),
  })
  .strict()
  .refine((c) => c.threatOff < c.threatOn, { message: 'threatOff must be below threatOn', path: ['threatOff'] })
  .refine((c) => c.classUnknownBelow < c.classKnownAtOrAbove, {
    message: 'classUnknownBelow must be below classKnownAtOrAbove',
    path: ['classUnknownBelow'],
  })
  .refine((c) => c.forgetAfterTicks > c.lostAfterTicks, {
    message: 'forgetAfterTicks must exceed lostAfterTicks',
    path: ['forgetAfterTicks'],
  })
  .refine((c) => c.gateMaxBlocks >= c.gateBaseBlocks, {
    message: 'gateMaxBlocks must be at least gateBaseBlocks',
    path: ['gateMaxBlocks'],
  });

export type BeliefConfig = z.output<typeof BeliefConfigSchema>;
export type BeliefConfigInput = z.input<typeof BeliefConfigSchema>;
