import { instrumentMethods, leasedView } from '@sinew/bt-runtime';
import { describe, expect, it } from 'vitest';
import type { SinewBot } from '../src/index.js';
import { lastSeenInFurnace, rememberFurnace } from '../src/body/furnace-memory.js';

/** A bot-shaped body: a name and one actuator, instrumented as the plugin does (so per-attempt views exist). */
function body(username: string): SinewBot {
  const bot = { username, dig: async () => {} };
  instrumentMethods(bot, ['dig']);
  return bot as unknown as SinewBot;
}

const lease = () => ({ expired: false, stale: () => {} });
const furnace = { x: -3, y: 64, z: 12.5 };

describe('furnace memory (what smelt_item resumes from)', () => {
  it('is per bot: a second bot with the same username in the same process sees none of it', () => {
    const first = body('smelter');
    const second = body('smelter');
    rememberFurnace(first, furnace, { input: { name: 'raw_iron', count: 1 }, output: { name: 'iron_ingot', count: 1 } });
    expect(lastSeenInFurnace(first, furnace)?.input).toEqual({ name: 'raw_iron', count: 1 });
    expect(lastSeenInFurnace(second, furnace)).toBeUndefined();
  });

  it('survives the per-attempt views: what one attempt saw, the next attempt of the same bot reads', () => {
    const bot = body('viewed');
    rememberFurnace(leasedView(bot, lease()), furnace, { output: { name: 'iron_ingot', count: 2 } });
    expect(leasedView(bot, lease())).not.toBe(bot);
    expect(lastSeenInFurnace(leasedView(bot, lease()), { x: -3, y: 64, z: 12 })?.output?.count).toBe(2);
    expect(lastSeenInFurnace(bot, furnace)?.output?.count).toBe(2);
  });
});
