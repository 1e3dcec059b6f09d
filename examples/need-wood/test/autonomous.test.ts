import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { runAutonomous } from '../src/autonomous/run.js';

it('the autonomous run: one day and night on the embedded server, fed, armed and sheltered; the helpful chat ask planned by the model, the harmful one refused with its rule', async () => {
  let text = '';
  const out = new Writable({ write: (chunk: Buffer, _encoding, done) => void ((text += chunk.toString()), done()) }) as unknown as NodeJS.WriteStream;
  // A minute: the pickaxe and the sword by day, the hut at nightfall (the run's end waits for plans in flight).
  const result = await runAutonomous({ minutes: 1, port: 0, out });
  const of = <T extends (typeof result.events)[number]['type']>(type: T) => result.events.filter((e): e is Extract<(typeof result.events)[number], { type: T }> => e.type === type);
  expect(of('cognition.refused').map((e) => [e.stage, e.rule]), text).toContainEqual(['input_filter', 'self_harm.lava']);
  expect(of('cognition.plan').some((e) => e.planner === 'llm' && e.verbs.includes('gather')), text).toBe(true);
  expect(result.modelCalls, text).toBeGreaterThanOrEqual(1);
  // The day began with a thought (the HTN went for wood); hunger was fed by the needs planner.
  expect(of('cognition.route').map((e) => `${e.goal}→${e.chosen}`), text).toEqual(expect.arrayContaining(['need wood→htn', 'eat→needs']));
  expect(of('cognition.outcome').some((e) => e.status === 'completed'), text).toBe(true);
  // Armed: the weapon need crafted a sword after the pickaxe (the bot's inventory). Sheltered: a hut the loop's plan
  // built stands whole, read back from the world by another player's client.
  expect(of('cognition.route').map((e) => `${e.goal}→${e.chosen}`), text).toContain('craft wooden_sword→htn');
  expect(result.armed, text).toBe('wooden_sword');
  expect(result.shelters.filter((hut) => hut.standing === hut.cells), text).not.toEqual([]);
  // Every decision carries its tick and the hash of its inputs.
  expect(result.events.every((e) => Number.isInteger(e.tick) && /^sha256:[0-9a-f]{16}$/.test(e.inputHash))).toBe(true);
  expect(result.exitCode, text).toBe(0);
}, 240_000);
