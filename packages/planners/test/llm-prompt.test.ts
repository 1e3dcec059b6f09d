import { IntentSchema, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { countWord, createLlmPlanner, describeWorld, distanceWord, loadCognitionConfig, planOutputSchema, relativeWords, type LlmEvent, type PlannerWorld } from '../src/index.js';
import { config, configInput, registry, scripted } from './support/llm.js';

const world: PlannerWorld = {
  position: { x: 123.4, y: 64, z: -87.6 },
  health: 13,
  food: 5,
  heldItem: 'stone_axe',
  inventory: { oak_log: 37, bread: 1, cobblestone: 3 },
  blocks: { '126,64,-88': 'oak_log', '123,40,-60': 'iron_ore' },
  time: 14_000,
  threats: [{ entity: 'zombie', position: { x: 117, y: 64, z: -87 }, distance: 6.4 }, { entity: 'creeper', distance: 40 }],
};
const intent = IntentSchema.parse({ id: 'ask-1', source: 'user', goal: 'the player asked for a shelter', urgency: 0.5, traits: ['ambiguous'], context: { x: 120, need: 'shelter' } });
const gather = (count: number) => ({ verb: 'gather', args: { block: 'oak_log', count } });

describe('LLM prompt in words and buckets (seeds/001)', () => {
  it('renders no coordinate, count or health number: positions as distance words and directions, counts as words', () => {
    const text = describeWorld(world);
    expect(text).not.toMatch(/\d/);
    expect(text.split('\n')).toEqual([
      'condition: hurt, starving',
      'time: night',
      'holding: stone_axe',
      'inventory: one bread, a few cobblestone, a stack oak_log',
      'blocks in view: iron_ore far to the south, below; oak_log within reach to the east',
      'threats: zombie close to the west, creeper far',
    ]);
  });

  it('the buckets are fixed: counts and distances map to their words at the edges', () => {
    expect([0, 1, 2, 4, 5, 16, 17, 64, 65].map(countWord)).toEqual(['none', 'one', 'a few', 'a few', 'several', 'several', 'a stack', 'a stack', 'lots']);
    expect([4, 4.1, 10, 24, 64, 65].map(distanceWord)).toEqual(['within reach', 'close', 'close', 'nearby', 'far', 'very far']);
    expect(relativeWords({ x: 0, y: 0, z: 0 }, { x: 0, y: 5, z: -9 })).toBe('nearby to the north, above');
  });

  it('the whole prompt the model receives carries the world and the intent without numbers', async () => {
    const events: LlmEvent[] = [];
    const model = scripted([JSON.stringify({ steps: [gather(2)] })]);
    const planner = createLlmPlanner({ complete: model.complete, config: config({ userTemplate: 'Intent:\n{intent}\n\nWorld:\n{world}\n\nVerbs:\n{verbs}' }), registry, onEvent: (e) => events.push(e), clock: new ManualClock() });
    expect((await planner.plan(intent, world)).ok).toBe(true);
    expect(model.prompts[0]!.user.split('Verbs:')[0]).not.toMatch(/\d/);
  });
});

describe('the reply schema comes from the config', () => {
  it('a verb the registry has but the config schema does not list is refused, and the corrective reply is accepted', async () => {
    const onlyGather = planOutputSchema(registry.toolDefinitions().filter((tool) => tool.name === 'gather'));
    const model = scripted([JSON.stringify({ steps: [{ verb: 'chat', args: { message: 'hello' } }] }), JSON.stringify({ steps: [gather(2)] })]);
    const planner = createLlmPlanner({ complete: model.complete, config: config({ outputSchema: onlyGather }), registry, clock: new ManualClock() });
    const result = await planner.plan(intent, world);
    expect(result.ok && result.plan.steps.map((s) => s.type)).toEqual(['gather']);
    expect(model.prompts[1]!.user).toMatch(/does not match the reply schema of the config/);
    expect(planner.verbs()).toEqual(['gather']);
  });

  it("the config schema's limits bind: more steps than its maxItems is refused until the budget runs out", async () => {
    const schema = planOutputSchema(registry);
    const short = { ...schema, properties: { ...(schema.properties as object), steps: { ...((schema.properties as Record<string, object>).steps as object), maxItems: 1 } } };
    const two = JSON.stringify({ steps: [gather(1), gather(2)] });
    const model = scripted([two, two, two]);
    const planner = createLlmPlanner({ complete: model.complete, config: config({ outputSchema: short }), registry, clock: new ManualClock() });
    const result = await planner.plan(intent, world);
    expect(!result.ok && result.failure.code).toBe('llm_output_rejected');
    // The same reply passes a config without the limit: the refusal came from the config's schema.
    const open = createLlmPlanner({ complete: scripted([two]).complete, config: config(), registry, clock: new ManualClock() });
    expect((await open.plan(intent, world)).ok).toBe(true);
  });

  it('a config whose output schema zod cannot read is refused when it is loaded', () => {
    const loaded = loadCognitionConfig(configInput({ outputSchema: { type: 'object', properties: { steps: { $ref: '#/$defs/missing' } } } }));
    expect(!loaded.ok && loaded.error.issues.map((i) => i.path.join('.'))).toEqual(['outputSchema']);
  });
});
