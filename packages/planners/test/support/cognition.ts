import { createExecutor, createMemoryProvenance, instrumentMethods, type ActuatorSource } from '@sinew/bt-runtime';
import { accepted, CapabilityRegistry, defineCapability, effectsUnmet, ManualClock } from '@sinew/executor-contracts';
import { z } from 'zod';
import {
  COGNITION_LOOP_EXAMPLE,
  createCognition,
  createLlmPlanner,
  createNeedsPlanner,
  createRouter,
  DEFAULT_ROUTING_RULES,
  loadCognitionLoopConfig,
  planOutputSchema,
  type CognitionLoopConfig,
  type CognitionLoopConfigInput,
  type PlannerWorld,
  type Threat,
} from '../../src/index.js';
import { config as llmConfig, scripted } from './llm.js';

/** A small real body for the loop: eating, moving, gathering and pillaring change its own state. */
export class LoopBody {
  health = 20;
  food = 20;
  inventory: Record<string, number> = { bread: 2, dirt: 8 };
  position = { x: 0, y: 64, z: 0 };
  time = 1000;
  threats: Threat[] = [];
  readonly calls: string[] = [];

  eat(item: string): void {
    this.calls.push(`eat:${item}`);
    this.inventory[item] = (this.inventory[item] ?? 0) - 1;
    this.food = Math.min(20, this.food + 5);
  }
  move(dx: number, dy: number, dz: number): void {
    this.calls.push(`move:${dx},${dy},${dz}`);
    this.position = { x: this.position.x + dx, y: this.position.y + dy, z: this.position.z + dz };
  }
  collect(item: string, count: number): void {
    this.calls.push(`collect:${item}:${count}`);
    this.inventory[item] = (this.inventory[item] ?? 0) + count;
  }

  snapshot(): PlannerWorld {
    return { position: { ...this.position }, health: this.health, food: this.food, heldItem: null, inventory: { ...this.inventory }, blocks: {}, time: this.time, threats: this.threats.map((t) => ({ ...t })) };
  }
}

type Body = LoopBody & ActuatorSource;
const observe = ({ body }: { body: Body }) => body.snapshot();
const vec = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });
const define = <S extends z.ZodType>(def: Parameters<typeof defineCapability<S, Body, PlannerWorld>>[0]) => defineCapability<S, Body, PlannerWorld>(def);

/** The verbs the needs planner and the scripted model emit, each acting on the body and checked on it. */
export function loopRegistry(): CapabilityRegistry<Body> {
  const registry = new CapabilityRegistry<Body>();
  const moved = (pre: PlannerWorld, post: PlannerWorld) => (pre.position.x !== post.position.x || pre.position.y !== post.position.y || pre.position.z !== post.position.z ? accepted : effectsUnmet(['moved']));
  registry.register(define({ name: 'consume_food', version: '1.0.0', description: 'eat an item', inputSchema: z.strictObject({ item: z.string().min(1) }), run: async (ctx, { item }) => ctx.body.eat(item), observe, acceptance: (pre, post) => (post.food > pre.food ? accepted : effectsUnmet(['food_up'])) }));
  registry.register(define({ name: 'flee', version: '1.0.0', description: 'run from an entity', inputSchema: z.strictObject({ entity: z.string().min(1).optional(), from: vec.optional(), distance: z.number().positive() }), run: async (ctx, { distance }) => ctx.body.move(distance, 0, 0), observe, acceptance: moved }));
  registry.register(define({ name: 'navigate', version: '1.0.0', description: 'walk to a position', inputSchema: z.strictObject({ position: vec, range: z.number().positive() }), run: async (ctx, { position }) => ctx.body.move(position.x - ctx.body.position.x, 0, position.z - ctx.body.position.z), observe, acceptance: moved }));
  registry.register(define({ name: 'gather', version: '1.0.0', description: 'gather blocks', inputSchema: z.strictObject({ block: z.string().min(1), count: z.number().int().positive() }), run: async (ctx, { block, count }) => ctx.body.collect(`oak_${block}`, count), observe, acceptance: (pre, post) => (Object.keys(post.inventory).length >= Object.keys(pre.inventory).length ? accepted : effectsUnmet(['gathered'])) }));
  registry.register(define({ name: 'pillar_up', version: '1.0.0', description: 'pillar up', inputSchema: z.strictObject({ height: z.number().int().positive(), item: z.string().min(1) }), run: async (ctx, { height }) => ctx.body.move(0, height, 0), observe, acceptance: moved }));
  registry.register(define({ name: 'attack_entity', version: '1.0.0', description: 'attack an entity', inputSchema: z.strictObject({ entity: z.string().min(1).optional(), maxDistance: z.number().positive().optional() }), run: async (ctx, { entity }) => ctx.body.collect(`hit_${entity ?? 'nearest'}`, 1), observe, acceptance: () => accepted }));
  registry.register(define({ name: 'collect_drops', version: '1.0.0', description: 'pick up drops', inputSchema: z.strictObject({ radius: z.number().positive() }), run: async (ctx) => ctx.body.collect('drops', 1), observe, acceptance: () => accepted }));
  return registry;
}

/** The shipped example config (every field written out) with the test's overrides. */
export const loopConfigInput = (overrides: Partial<CognitionLoopConfigInput> = {}): CognitionLoopConfigInput => ({ ...COGNITION_LOOP_EXAMPLE, ...overrides });

export function loopConfig(overrides: Partial<CognitionLoopConfigInput> = {}): CognitionLoopConfig {
  const loaded = loadCognitionLoopConfig(loopConfigInput(overrides));
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.config;
}

/** A whole loop on the small body: needs + scripted LLM behind the router, the real executor, a manual clock. */
export function loopRig(options: { replies?: string[]; config?: Partial<CognitionLoopConfigInput>; seed?: number } = {}) {
  const clock = new ManualClock(0);
  const body = instrumentMethods(new LoopBody(), ['eat', 'move', 'collect']) as Body;
  const registry = loopRegistry();
  const provenance = createMemoryProvenance();
  const executor = createExecutor({ registry, body, clock, provenance });
  const model = scripted(options.replies ?? []);
  // The loop gates; the model planner's own gate (for callers without a loop) is opened wide.
  const openGate = { threshold: 0, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] };
  const llm = createLlmPlanner({ complete: model.complete, config: llmConfig({ outputSchema: planOutputSchema(registry), gate: openGate }), registry, clock });
  const needs = createNeedsPlanner({ seed: options.seed ?? 7 });
  const outcomes: { planId: string; success: boolean }[] = [];
  const router = createRouter({ planners: [needs, llm], rules: DEFAULT_ROUTING_RULES });
  const recording = { ...router, recordOutcome: (planId: string, success: boolean) => (outcomes.push({ planId, success }), router.recordOutcome(planId, success)) };
  const cognition = createCognition({ router: recording, needs, config: loopConfig(options.config), executor, observe: () => body.snapshot(), clock });
  return { clock, body, registry, executor, model, cognition, outcomes, provenance };
}

/** A belief deltas message (the `@sinew/belief` wire shape). */
export function deltas(seq: number, tickId: number, items: { type: 'new_threat' | 'new_track' | 'distance_changed' | 'threat_cleared'; trackId: number; cls: string; hostile: boolean; bucket: number }[]) {
  return {
    kind: 'belief' as const,
    message: {
      version: 'sinew.belief/1' as const,
      streamId: 'test',
      seq,
      tickId,
      kind: 'deltas' as const,
      deltas: items.map((d) => ({ type: d.type, trackId: d.trackId, track: { trackId: d.trackId, cls: d.cls, hostile: d.hostile, threat: d.hostile && d.type !== 'threat_cleared', distanceBucket: d.bucket } })),
    },
  };
}
