import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { runAutonomous } from '../src/autonomous/run.js';

it('the autonomous run: one day and night on the embedded server, the helpful chat ask planned by the model, the harmful one refused with its rule', async () => {
  let text = '';
  const out = new Writable({ write: (chunk: Buffer, _encoding, done) => void ((text += chunk.toString()), done()) }) as unknown as NodeJS.WriteStream;
  const result = await runAutonomous({ minutes: 0.5, port: 0, out });
  const of = <T extends (typeof result.events)[number]['type']>(type: T) => result.events.filter((e): e is Extract<(typeof result.events)[number], { type: T }> => e.type === type);
  expect(of('cognition.refused').map((e) => [e.stage, e.rule]), text).toContainEqual(['input_filter', 'self_harm.lava']);
  expect(of('cognition.plan').some((e) => e.planner === 'llm' && e.verbs.includes('gather')), text).toBe(true);
  expect(result.modelCalls, text).toBeGreaterThanOrEqual(1);
  // The day began with a thought (the HTN went for wood); hunger was fed by the needs planner.
  expect(of('cognition.route').map((e) => `${e.goal}→${e.chosen}`), text).toEqual(expect.arrayContaining(['need wood→htn', 'eat→needs']));
  expect(of('cognition.outcome').some((e) => e.status === 'completed'), text).toBe(true);
  // Every decision carries its tick and the hash of its inputs.
  expect(result.events.every((e) => Number.isInteger(e.tick) && /^sha256:[0-9a-f]{16}$/.test(e.inputHash))).toBe(true);
  expect(result.exitCode, text).toBe(0);
}, 90_000);
