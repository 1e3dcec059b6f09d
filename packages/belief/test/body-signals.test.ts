import { describe, expect, it } from 'vitest';
import { ManualClock } from '@sinew/executor-contracts';
import { bodySignals } from '@sinew/belief/mineflayer';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';

/** A small fake mineflayer body: standing on grass, digging a log that takes 3 s by hand (or nothing). */
function fakeBot() {
  const log = { type: 46, name: 'oak_log', position: new Vec3(3, -60, 1) };
  const world = new Map<string, { type: number; name: string }>([[log.position.toString(), log]]);
  const bot = {
    entity: { position: new Vec3(2.5, -60, 0.5), metadata: [0], onGround: true, velocity: new Vec3(0, 0, 0) },
    health: 20,
    food: 20,
    oxygenLevel: 20,
    inventory: { items: () => [] },
    registry: { foodsByName: {} },
    targetDigBlock: undefined as typeof log | undefined,
    digTime: (block: typeof log) => (block.name === 'oak_log' ? 3_000 : 50),
    blockAt: (p: Vec3) => world.get(p.floored().toString()) ?? { type: 0, name: 'air' },
  };
  return { bot, log, world, asBot: bot as unknown as Bot };
}

describe('bodySignals: the dig under way is timed on the clock it is given', () => {
  it('digRemainingMs falls as the injected clock advances, not as wall time passes', async () => {
    const clock = new ManualClock(50_000);
    const { bot, asBot } = fakeBot();
    const now = () => clock.now();
    expect(bodySignals(asBot, now)!.digRemainingMs).toBeUndefined();
    bot.targetDigBlock = fakeBot().log;
    expect(bodySignals(asBot, now)!.digRemainingMs).toBe(3_000);
    await clock.advance(1_250);
    expect(bodySignals(asBot, now)!.digRemainingMs).toBe(1_750);
    await clock.advance(5_000);
    expect(bodySignals(asBot, now)!.digRemainingMs).toBe(0);
  });

  it('a released dig whose block still stands counts as 0 left for the confirm window of that clock, then as no dig', async () => {
    const clock = new ManualClock(7);
    const { bot, log, asBot } = fakeBot();
    const now = () => clock.now();
    bot.targetDigBlock = log;
    expect(bodySignals(asBot, now)!.digRemainingMs).toBe(3_000);
    await clock.advance(3_000);
    bot.targetDigBlock = undefined; // mineflayer sent the finish; the server has not answered
    expect(bodySignals(asBot, now)!.digRemainingMs).toBe(0);
    await clock.advance(500);
    expect(bodySignals(asBot, now)!.digRemainingMs).toBe(0);
    await clock.advance(1);
    expect(bodySignals(asBot, now)!.digRemainingMs).toBeUndefined();
  });
});
