import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Executor } from '@sinew/bt-runtime';
import type { SinewBot } from '@sinew/capabilities';
import { applyScenario, damage, give, reset, setAir, setNaturalRegeneration, spawnMob, teleport, waitUntil, type TestServer } from '@sinew/testkit';
import type { ModeEvent } from '@sinew/belief';
import { attachModes, bodySignals, type AttachedModes, type BeliefAdapter } from '@sinew/belief/mineflayer';
import { startModesBot, type ModesBot } from './real-bot.js';

// One embedded server, one real bot, the real executor; the modes preempt it from real body signals.
let server: TestServer;
let bot: SinewBot;
let executor: Executor<SinewBot>;
let belief: BeliefAdapter;
let modes: AttachedModes;
let real: ModesBot | undefined;
const events: ModeEvent[] = [];
const actuations: { at: number; command: string }[] = [];

beforeAll(async () => {
  real = await startModesBot('modes', events);
  ({ server, bot, executor, belief, modes } = real);
  bot.sinew.onActuate(({ command }) => actuations.push({ at: Date.now(), command }));
});

afterAll(async () => {
  await real?.stop();
});

beforeEach(async () => {
  await modes.idle();
  await reset(server);
  events.length = 0;
});

/** Whether `done` holds within `ms` of server time (counted in its ticks: a loaded machine's slow ticks stretch the wait). */
const until = (done: () => boolean, ms: number): Promise<boolean> => waitUntil(server, done, ms / 50);
/** `sinew_hazard_emergencies_total` for a mode, by result (the counter on the belief adapter's registry). */
async function emergencyCounts(mode: string): Promise<Record<string, number>> {
  const metric = await belief.registry.getSingleMetric('sinew_hazard_emergencies_total')!.get();
  return Object.fromEntries(metric.values.filter((v) => v.labels.mode === mode).map((v) => [v.labels.result, v.value]));
}
const outcomesOf = (mode: string) => events.flatMap((e) => (e.type === 'outcome' && e.mode === mode ? e.outcomes : []));
/** Milliseconds from a mode's rising edge to the first actuator command after it. */
function reactionMs(mode: string): number | undefined {
  const rise = events.find((e) => e.type === 'signal' && e.mode === mode && e.edge === 'rise');
  const first = rise && actuations.find((a) => a.at >= rise.atMs);
  return rise && first ? first.at - rise.atMs : undefined;
}

describe('self-preservation modes on the embedded server', () => {
  it('lava_pit: dropped into lava, the bot climbs out with escape_fluid and lives', async () => {
    const before = await emergencyCounts('hazard_block');
    const pit = await applyScenario(server, 'lava_pit');
    await teleport(bot, pit.inside);
    expect(await until(() => outcomesOf('hazard_block').some((o) => o.status === 'succeeded'), 15_000)).toBe(true);
    await modes.idle();
    // still burning on the rim: the same mode walks on into the water pool and puts the fire out
    expect(await until(() => !bodySignals(bot)!.onFire, 15_000)).toBe(true);
    await modes.idle();
    expect(bodySignals(bot)!.inLava).toBe(false);
    expect(bot.health).toBeGreaterThan(0);
    expect(events.find((e) => e.type === 'preempt')).toMatchObject({ mode: 'hazard_block', step: { type: 'escape_fluid', args: { fluid: 'lava' } } });
    // Hazard recall: escape_fluid went out on the tick the lava was seen, before the first burn.
    expect(events.filter((e) => e.type === 'emergency' && e.mode === 'hazard_block')).toMatchObject([{ result: 'preempted_before_damage' }]);
    const after = await emergencyCounts('hazard_block');
    expect({ recalled: after.preempted_before_damage! - before.preempted_before_damage!, missed: after.damaged_first! - before.damaged_first! }).toEqual({ recalled: 1, missed: 0 });
    console.info(`[modes] lava: reaction ${reactionMs('hazard_block')} ms, health ${bot.health}, at ${bot.entity.position}`);
  });

  it('deep_water: at the bottom with little air, the bot surfaces before drowning', async () => {
    const pool = await applyScenario(server, 'deep_water');
    await teleport(bot, pool.bottom);
    await setAir(bot, 120); // oxygen 8 of 20: below the drowning band
    expect(await until(() => outcomesOf('drowning').some((o) => o.status === 'succeeded'), 15_000)).toBe(true);
    expect(bodySignals(bot)!.eyesInWater).toBe(false);
    expect(bot.health).toBe(20); // surfaced before the air ran out
    console.info(`[modes] water: reaction ${reactionMs('drowning')} ms, oxygen ${bot.oxygenLevel}, y ${bot.entity.position.y.toFixed(2)}`);
  });

  it('shelter: hurt with a zombie coming, the bot pillars up and the plan waits up there until it has healed', async () => {
    setNaturalRegeneration(server, true);
    try {
      await give(bot, 'cobblestone', 16);
      // Bread: healing drains the food bar below 18, where regeneration stops; up there the bot eats to heal on.
      await give(bot, 'bread', 4);
      await damage(bot, 15);
      const start = bot.entity.position.floored();
      await spawnMob(server, 'zombie', { x: start.x + 9, y: start.y, z: start.z });
      expect(await until(() => events.some((e) => e.type === 'preempt' && e.step.type === 'pillar_up'), 15_000)).toBe(true);
      // A plan step queued now (a chat: it moves nothing) waits while the body shelters.
      let chattedAt: number | undefined;
      let healthThen = 0;
      const said = executor.run({ planId: 'shelter-plan', intentId: 'i', steps: [{ stepId: 'say', type: 'chat', args: { message: 'healed' } }] });
      const off = bot.sinew.onActuate(({ command }) => {
        if (command !== 'chat' || chattedAt !== undefined) return;
        chattedAt = Date.now();
        healthThen = bot.health;
      });
      try {
        expect((await said).status).toBe('completed');
      } finally {
        off();
      }
      const rise = events.find((e) => e.type === 'shelter' && e.edge === 'rise');
      const fall = events.find((e) => e.type === 'shelter' && e.edge === 'fall');
      expect(rise, JSON.stringify(events.filter((e) => e.type !== 'defense').slice(0, 12))).toBeDefined();
      expect(fall).toMatchObject({ reason: 'health back' });
      expect(chattedAt!).toBeGreaterThanOrEqual(fall!.atMs);
      expect(healthThen).toBeGreaterThanOrEqual(12);
      expect(bot.entity.position.y).toBeGreaterThanOrEqual(start.y + 3);
      expect(events.filter((e) => e.type === 'preempt' && e.step.type === 'pillar_up')).toHaveLength(1);
      console.info(`[modes] shelter: held ${fall!.atMs - rise!.atMs} ms, health ${healthThen} when the plan went on`);
    } finally {
      setNaturalRegeneration(server, false);
    }
  });

  it('hostile_swarm_at_nightfall: a zombie closing in is fought off (brave reflex through the modes) and the bot lives', async () => {
    modes.detach();
    const brave = attachModes(bot, { preemptor: executor, belief, profile: 'brave', onEvent: (e) => events.push(e) });
    try {
      await give(bot, 'iron_sword', 1);
      await applyScenario(server, 'hostile_swarm_at_nightfall', { count: 1, kinds: ['zombie'] });
      const fought = () => events.some((e) => e.type === 'defense' && e.event.type === 'outcome' && e.event.outcomes.some((o) => o.verb === 'attack_entity' && o.status === 'succeeded'));
      expect(await until(fought, 30_000)).toBe(true);
      await brave.idle();
      expect(bot.health).toBeGreaterThan(0);
      const preempts = events.filter((e) => e.type === 'preempt');
      expect(preempts.every((e) => e.type === 'preempt' && e.mode === 'defense')).toBe(true);
      console.info(`[modes] swarm: ${preempts.map((e) => e.type === 'preempt' && e.step.type).join(', ')}; health ${bot.health}`);
    } finally {
      brave.detach();
      await brave.idle();
      modes = attachModes(bot, { preemptor: executor, belief, onEvent: (e) => events.push(e) });
    }
  });
});
