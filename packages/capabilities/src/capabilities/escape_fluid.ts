import { accepted, blockKey, effectsUnmet, fail, guardFailed, guardOk, pred, type Vec3 as Position } from '@sinew/executor-contracts';
import { EYE_HEIGHT } from '@sinew/executor-contracts/minecraft';
import { Vec3 } from 'vec3';
import { z } from 'zod';
import type { SinewBot } from '../bot.js';
import { defineBotCapability } from '../body.js';
import { ABORTED } from '../body/failures.js';
import { bodyCells, clearOf, outOfFluid } from '../body/fluids.js';
import { nearestBlock } from '../body/geometry.js';
import { waitFor } from '../body/waiting.js';
import { observeWorld } from '../world.js';

/** Arguments of `escape_fluid`. */
export const EscapeFluidArgsSchema = z.strictObject({
  /** What to get out of: `lava` (feet and head out of it, toward water when near), `fire` (out of fire blocks and put out in water), `water` (eyes up into air). */
  fluid: z.enum(['lava', 'fire', 'water']),
  /** How far to look for water (lava, fire) or dry standing ground. */
  radius: z.number().int().min(1).max(16).default(8),
});
export type EscapeFluidArgs = z.output<typeof EscapeFluidArgsSchema>;

const RUN_MS = 8_000;

/** The "on fire" bit of entity metadata 0. */
function burning(bot: SinewBot): boolean {
  const flags = (bot.entity.metadata as unknown[])[0];
  return typeof flags === 'number' && (flags & 1) === 1;
}

function standable(bot: SinewBot, x: number, y: number, z: number): boolean {
  const below = bot.blockAt(new Vec3(x, y - 1, z));
  const feet = bot.blockAt(new Vec3(x, y, z));
  const head = bot.blockAt(new Vec3(x, y + 1, z));
  const open = (name: string | undefined) => name === 'air' || name === 'cave_air' || name === 'water';
  return below?.boundingBox === 'block' && open(feet?.name) && open(head?.name);
}

/** Where to head: the nearest water (out of lava or fire), else the nearest standable cell outside the hazard. */
function refuge(bot: SinewBot, args: EscapeFluidArgs): Position | undefined {
  if (args.fluid !== 'water') {
    const water = nearestBlock(bot, 'water', args.radius);
    if (water) return water.position.offset(0.5, 0, 0.5);
  }
  const here = bot.entity.position.floored();
  let best: { at: Position; distance: number } | undefined;
  for (let dx = -args.radius; dx <= args.radius; dx += 1)
    for (let dz = -args.radius; dz <= args.radius; dz += 1)
      for (let dy = -1; dy <= 3; dy += 1) {
        const [x, y, z] = [here.x + dx, here.y + dy, here.z + dz];
        const distance = Math.hypot(dx, dy, dz);
        if ((best && distance >= best.distance) || !standable(bot, x, y, z)) continue;
        if (args.fluid === 'water' && bot.blockAt(new Vec3(x, y + 1, z))?.name === 'water') continue;
        best = { at: { x: x + 0.5, y, z: z + 0.5 }, distance };
      }
  return best?.at;
}

/** Gets the body out of lava or fire (into water when near, else onto dry ground) or its eyes up out of water. */
export const escapeFluid = defineBotCapability({
  name: 'escape_fluid',
  version: '1.0.0',
  description: 'Get out of lava or fire (toward water when near, else away), or swim up to air when drowning.',
  inputSchema: EscapeFluidArgsSchema,
  expectedDurationMs: 10_000,
  safetyLevel: 'caution',
  effects: (args) => [pred.outOf(args.fluid)],
  guard: ({ body }, args) => {
    if (args.fluid !== 'fire' || !outOfFluid(body, 'fire')) return guardOk;
    if (!burning(body)) return guardFailed('not burning and not in fire');
    return nearestBlock(body, 'water', args.radius)
      ? guardOk
      : guardFailed(`burning with no water within ${args.radius} blocks to put it out`);
  },
  observe: ({ body }) => observeWorld(body, { positions: bodyCells(body.entity.position) }),
  run: async (ctx, args) => {
    const bot = ctx.body;
    // fire is escaped once out of fire blocks and put out (burning goes on for seconds after)
    const isClear = () => outOfFluid(bot, args.fluid) && (args.fluid !== 'fire' || !burning(bot));
    try {
      // jump first (it is also "swim up": in a fluid it lifts the body, on land it climbs the rim), then look for a refuge
      bot.setControlState('jump', true);
      const target = refuge(bot, args);
      if (target) {
        await bot.lookAt(new Vec3(target.x, bot.entity.position.y + EYE_HEIGHT, target.z), true);
        bot.setControlState('forward', true);
        bot.setControlState('sprint', args.fluid !== 'water');
      }
      const out = await waitFor(ctx, () => { ctx.progress(); return isClear(); }, RUN_MS, 50);
      if (ctx.signal.aborted) return ABORTED;
      // one more moment forward so the body is over solid ground, not on the rim's edge
      if (out && args.fluid !== 'water') await ctx.sleep(300);
      return out
        ? { ok: true, observables: { y: bot.entity.position.y, refuge: target ? blockKey(target) : 'up' } }
        : fail.stuck(`still in ${args.fluid} after ${RUN_MS / 1000} s`);
    } finally {
      bot.clearControlStates();
    }
  },
  acceptance: (_pre, post, args) =>
    clearOf(post, args.fluid)
      ? accepted
      : effectsUnmet([pred.outOf(args.fluid)], `body still in ${args.fluid} at ${blockKey(post.position)}`),
});
