import type { SquidPlayer, SquidServer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

/** Vanilla's food tick constants (1.20.4 `FoodData`): thresholds in food points, periods in server ticks. */
export const REGENERATION_RULES = {
  /** Saturated regeneration: food at 20 and saturation above 0 heals min(saturation, 6) / 6 every 10 ticks… */
  saturatedFood: 20,
  saturatedPeriodTicks: 10,
  /** …otherwise food ≥ 18 heals 1 every 80 ticks, costing 6 exhaustion. */
  fedFood: 18,
  fedPeriodTicks: 80,
  fedExhaustion: 6,
  /** Food 0 starves 1 every 80 ticks (on normal difficulty down to 1 health; on easy down to 10; hard to death). */
  starvePeriodTicks: 80,
  /** Every 4 exhaustion costs 1 saturation, or 1 food once saturation is gone (not on peaceful). */
  exhaustionPerPoint: 4,
  maxExhaustion: 40,
  maxHealth: 20,
} as const;

/** One player's food clock (vanilla's `FoodData.tickTimer` and `exhaustionLevel`). */
export interface FoodClock {
  tickTimer: number;
  exhaustion: number;
}

/** What the food tick reads and writes of a player. */
export interface FoodBody {
  health: number;
  food: number;
  saturation: number;
}

/** Difficulty as flying-squid numbers it: 0 peaceful, 1 easy, 2 normal, 3 hard. */
type Difficulty = number;

function exhaust(clock: FoodClock, amount: number): void {
  clock.exhaustion = Math.min(clock.exhaustion + amount, REGENERATION_RULES.maxExhaustion);
}

function starves(health: number, difficulty: Difficulty): boolean {
  return health > 10 || difficulty === 3 || (health > 1 && difficulty === 2);
}

/**
 * One server tick of vanilla's food rules for one living player (`FoodData.tick`, 1.20.4): exhaustion drains
 * saturation then food; a hurt, fed body heals (fast while saturated at full food); an empty food bar starves.
 * Deterministic: the same body and clock give the same result. Returns the body after the tick (a new object).
 */
export function foodTick(clock: FoodClock, body: FoodBody, difficulty: Difficulty, regenerate: boolean): FoodBody {
  const rules = REGENERATION_RULES;
  let { health, food, saturation } = body;
  if (clock.exhaustion > rules.exhaustionPerPoint) {
    clock.exhaustion -= rules.exhaustionPerPoint;
    if (saturation > 0) saturation = Math.max(saturation - 1, 0);
    else if (difficulty !== 0) food = Math.max(food - 1, 0);
  }
  const hurt = health > 0 && health < rules.maxHealth;
  if (regenerate && saturation > 0 && hurt && food >= rules.saturatedFood) {
    clock.tickTimer += 1;
    if (clock.tickTimer >= rules.saturatedPeriodTicks) {
      const spent = Math.min(saturation, 6);
      health = Math.min(health + spent / 6, rules.maxHealth);
      exhaust(clock, spent);
      clock.tickTimer = 0;
    }
  } else if (regenerate && food >= rules.fedFood && hurt) {
    clock.tickTimer += 1;
    if (clock.tickTimer >= rules.fedPeriodTicks) {
      health = Math.min(health + 1, rules.maxHealth);
      exhaust(clock, rules.fedExhaustion);
      clock.tickTimer = 0;
    }
  } else if (food <= 0) {
    clock.tickTimer += 1;
    if (clock.tickTimer >= rules.starvePeriodTicks) {
      if (starves(health, difficulty)) health -= 1;
      clock.tickTimer = 0;
    }
  } else {
    clock.tickTimer = 0;
  }
  return { health, food, saturation };
}

const settings = new WeakMap<SquidServer, { on: boolean; initial: boolean }>();

/** Turns natural regeneration on or off (vanilla's `naturalRegeneration` game rule); `initial` also makes it what reset() restores. */
export function configureRegeneration(serv: SquidServer, on: boolean, initial = false): void {
  const setting = settings.get(serv);
  if (!setting) return;
  setting.on = on;
  if (initial) setting.initial = on;
}

/**
 * The food tick on every server tick for every living survival/adventure player. Regeneration itself is opt-in
 * (`startServer({ naturalRegeneration: true })`): vanilla's rule is on, but a test that set health expects it to stay.
 * Exhaustion comes from healing only (walking, jumping, mining, attacking and damage cost none here); starvation at
 * food 0 applies whether regeneration is on or not, as in vanilla.
 */
export function installRegeneration(ctx: ExtensionContext): void {
  const { serv } = ctx;
  const setting = { on: false, initial: false };
  settings.set(serv, setting);
  const clocks = new Map<SquidPlayer, FoodClock>();
  const forget = () => clocks.clear();
  ctx.onReset(() => {
    forget();
    setting.on = setting.initial;
  });
  ctx.onStop(forget);
  serv.on('tick', () => {
    for (const player of serv.players) {
      if (player.disconnected || (player.gameMode !== 0 && player.gameMode !== 2)) continue;
      if (player.health <= 0) {
        clocks.delete(player); // a respawned body starts a new food clock, as vanilla's new FoodData
        continue;
      }
      const clock = clocks.get(player) ?? { tickTimer: 0, exhaustion: 0 };
      clocks.set(player, clock);
      const before = { health: player.health, food: player.food, saturation: player.foodSaturation ?? 0 };
      const after = foodTick(clock, before, serv.difficulty, setting.on);
      if (after.food === before.food && after.saturation === before.saturation && after.health === before.health) continue;
      player.foodSaturation = after.saturation;
      player.food = after.food;
      if (after.health < before.health) player.takeDamage({ damage: before.health - after.health, sound: 'entity.player.hurt' });
      else player.updateHealth(after.health);
    }
  });
  serv.on('newPlayer', (player: SquidPlayer) => player.once('disconnected', () => clocks.delete(player)));
}
