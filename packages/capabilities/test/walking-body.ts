import { EventEmitter } from 'node:events';
import type { ManualClock } from '@sinew/executor-contracts';
import minecraftData from 'minecraft-data';
import { Vec3 } from 'vec3';
import { instrumentBot, type SinewBot } from '../src/index.js';

/** What the fake pathfinder reads of a goal (pathfinder asks its nodes the same question). */
type Goal = { isEnd(node: { x: number; y: number; z: number }): boolean };

/** A server tick, and vanilla's walking speed (4.317 blocks/s) over one. */
export const TICK_MS = 50;
export const WALKING_BLOCKS_PER_TICK = 4.317 / 20;
const registry = minecraftData('1.20.4');

/**
 * How the fake body walks: from where (feet at y 5), how far per server tick along +x, up to which x (a wall), and
 * for how many server ticks its pathfinder thinks before the first step (`Infinity`: it never finds a path).
 */
export interface WalkingBodyOptions {
  readonly fromX?: number;
  readonly blocksPerTick?: number;
  readonly wallX?: number;
  readonly thinkTicks?: number;
}

/**
 * A small fake body on the ManualClock, instrumented like a real bot. Its pathfinder, given a goal, presses `forward`
 * once and then holds its controls: every server tick the body moves `blocksPerTick` along +x with no further command,
 * until the goal's end is reached (pathfinder's full stop clears the controls) — or it has walked into the wall at
 * `wallX` and stays there, still pressing forward. `setGoal(null)` stops the walk and rejects its `goto`.
 * Before the first step its pathfinder may think for `thinkTicks` ticks, as mineflayer-pathfinder does over a long
 * path: no command, the body still, and a `path_update` with status `partial` every tick until the path is found.
 */
export function walkingBody(clock: ManualClock, options: WalkingBodyOptions = {}) {
  const { fromX = 0.5, blocksPerTick = WALKING_BLOCKS_PER_TICK, wallX = Number.POSITIVE_INFINITY, thinkTicks = 0 } = options;
  const controls: Record<string, boolean> = {};
  let walking: { goal: Goal; resolve: () => void; reject: (error: Error) => void } | undefined;
  const think = (ticksLeft: number) => {
    if (!walking) return;
    if (ticksLeft <= 0) {
      bot.emit('path_update', { status: 'success', path: [] });
      bot.setControlState('forward', true);
      return clock.setTimeout(tick, TICK_MS);
    }
    bot.emit('path_update', { status: 'partial', path: [] });
    clock.setTimeout(() => think(ticksLeft - 1), TICK_MS);
  };
  const tick = () => {
    if (!walking) return;
    const position = bot.entity.position;
    if (walking.goal.isEnd(position.floored())) {
      const { resolve } = walking;
      walking = undefined;
      bot.clearControlStates();
      return resolve();
    }
    position.x = Math.min(position.x + blocksPerTick, wallX);
    bot.emit('move');
    clock.setTimeout(tick, TICK_MS);
  };
  const bot = Object.assign(new EventEmitter(), {
    registry,
    entity: { position: new Vec3(fromX, 5, 0.5), onGround: true },
    health: 20,
    food: 20,
    heldItem: null,
    inventory: { items: () => [] },
    time: { timeOfDay: 6_000 },
    loadPlugin: (plugin: (body: never) => void) => plugin(bot as never),
    blockAt: (at: Vec3) => ({ name: at.y < 5 ? 'grass_block' : 'air', position: at }),
    setControlState: (control: string, state: boolean) => void (controls[control] = state),
    clearControlStates: () => void Object.keys(controls).forEach((control) => (controls[control] = false)),
    pathfinder: {
      setMovements() {},
      // A search at once (the recovery ladder's "boxed in?" question): it runs out of time where the walk never finds a path.
      getPathTo: () => ({ status: thinkTicks === Number.POSITIVE_INFINITY ? 'timeout' : 'success', path: [] }),
      setGoal(goal: Goal | null) {
        if (goal !== null || !walking) return;
        const { reject } = walking;
        walking = undefined;
        reject(Object.assign(new Error('goal changed'), { name: 'GoalChanged' }));
      },
      goto: (goal: Goal) =>
        new Promise<void>((resolve, reject) => {
          walking = { goal, resolve, reject };
          think(thinkTicks);
        }),
    },
  });
  return { bot: instrumentBot(bot as unknown as SinewBot), controls };
}
