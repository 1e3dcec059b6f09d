import { IntentSchema, ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import {
  createCognitionGate,
  createLlmPlanner,
  loadCognitionConfig,
  planOutputSchema,
  type GateSignal,
  type LlmEvent,
  type PlannerWorld,
} from '../src/index.js';
import { config, configInput, registry, scripted } from './support/llm.js';

const world: PlannerWorld = { position: { x: 1.5, y: 64, z: -2.2 }, health: 6, food: 18, heldItem: null, inventory: { oak_log: 2 }, blocks: { '3,64,0': 'oak_log' } };
const intent = IntentSchema.parse({ id: 'ask-1', source: 'user', goal: 'the player asked for something to build with', urgency: 0.5, traits: ['ambiguous'] });

const good = JSON.stringify({ rationale: 'logs make planks, planks build', steps: [{ verb: 'craft_item', args: { item: 'oak_planks', count: 8 } }, { verb: 'chat', args: { message: 'made planks' } }] });

describe('cognition config (seeds/002)', () => {
  it('loads a complete config', () => {
    expect(loadCognitionConfig(configInput()).ok).toBe(true);
  });

  it('names the missing template tokens at load time', () => {
    const loaded = loadCognitionConfig(configInput({ userTemplate: 'Intent {intent} only', correctiveTemplate: 'try again' }));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error.code).toBe('invalid_config');
    expect(loaded.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'userTemplate: must contain {world}',
      'userTemplate: must contain {verbs}',
      'correctiveTemplate: must contain {complaint}',
    ]);
  });

  it('has no hidden defaults: a missing field or an unknown one is rejected', () => {
    const { retryBudget: _omit, ...withoutBudget } = configInput();
    const missing = loadCognitionConfig(withoutBudget);
    expect(!missing.ok && missing.error.issues[0]!.path).toEqual(['retryBudget']);
    const extra = loadCognitionConfig({ ...configInput(), temperature: 0.2 });
    expect(!extra.ok && extra.error.message).toContain('temperature');
    const badSchema = loadCognitionConfig(configInput({ outputSchema: { type: 'array' } }));
    expect(!badSchema.ok && badSchema.error.issues[0]!.path).toEqual(['outputSchema']);
  });

  it('completeTimeoutMs is required and must be a positive integer', () => {
    const { completeTimeoutMs: _omit, ...withoutTimeout } = configInput();
    const missing = loadCognitionConfig(withoutTimeout);
    expect(!missing.ok && missing.error.issues[0]!.path).toEqual(['completeTimeoutMs']);
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      const loaded = loadCognitionConfig(configInput({ completeTimeoutMs: bad }));
      expect(!loaded.ok && loaded.error.issues[0]!.path).toEqual(['completeTimeoutMs']);
    }
  });

  it('verbs() are the verbs the schema offers the model, so the verb gate catches a stale schema', () => {
    const complete = async () => '';
    expect(createLlmPlanner({ complete, config: config(), registry }).verbs()).toEqual(registry.verbs());
    const stale = planOutputSchema([...registry.toolDefinitions(), { name: 'chop_tree', description: 'old verb', inputSchema: { type: 'object' } }]);
    expect(createLlmPlanner({ complete, config: config({ outputSchema: stale }), registry }).verbs()).toContain('chop_tree');
  });

  it('generates the output JSON Schema from the registry tool definitions', () => {
    const schema = planOutputSchema(registry) as { properties: { steps: { items: { oneOf: { properties: { verb: { const: string }; args: { properties: Record<string, unknown> } } }[] } } } };
    const variants = schema.properties.steps.items.oneOf;
    expect(variants.map((v) => v.properties.verb.const)).toEqual(registry.verbs());
    const craft = variants.find((v) => v.properties.verb.const === 'craft_item')!;
    expect(Object.keys(craft.properties.args.properties)).toEqual(['item', 'count']);
  });
});

describe('LLM planner: validation and corrective retries', () => {
  it('accepts a correct first reply; the prompt renders intent, world (no numeric health), verbs and schema', async () => {
    const model = scripted([good]);
    const result = await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent, world);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.steps).toEqual([
      { stepId: 's1', type: 'craft_item', args: { item: 'oak_planks', count: 8 } },
      { stepId: 's2', type: 'chat', args: { message: 'made planks' } },
    ]);
    const user = model.prompts[0]!.user;
    expect(user).toContain('goal: the player asked for something to build with');
    expect(user).toContain('condition: badly hurt, fed');
    expect(user).not.toMatch(/health/);
    expect(user).toContain('- craft_item:');
    expect(user).toContain('"oneOf"');
    // What each verb needs and gives, in the predicate wire form with its args as placeholders.
    expect(user).toContain('- craft_item: craft (gives has_item:<item>:+<count>)');
    expect(user).toMatch(/- chat: chat \(fake\)\n/);
  });

  it('malformed JSON, an unknown verb, bad args, a numeric field, then a correct answer: each rejection is fed back', async () => {
    const replies = [
      '{"steps": [{"verb": "chat", "args": {"message": "hi"}]',
      JSON.stringify({ steps: [{ verb: 'chop_tree', args: {} }] }),
      JSON.stringify({ steps: [{ verb: 'craft_item', args: { item: 'oak_planks', count: -2 } }] }),
      JSON.stringify({ confidence: 0.9, steps: [{ verb: 'chat', args: { message: 'hi' } }] }),
      good,
    ];
    const model = scripted(replies);
    const events: LlmEvent[] = [];
    const planner = createLlmPlanner({ complete: model.complete, config: config({ retryBudget: 4 }), registry, onEvent: (e) => events.push(e) });
    const result = await planner.plan(intent, world);
    expect(result.ok).toBe(true);
    expect(model.prompts).toHaveLength(5);
    const corrective = model.prompts.slice(1).map((p) => p.user);
    for (const prompt of corrective) expect(prompt).toMatch(/^Your previous reply was rejected: /);
    expect(corrective[0]).toContain('not valid JSON');
    expect(corrective[1]).toContain('steps[0].verb "chop_tree" is not a registered verb');
    expect(corrective[1]).toContain('Use only: attack_entity, build_structure, chat, collect_drops');
    expect(corrective[2]).toContain('steps[0] (craft_item) has invalid args');
    expect(corrective[2]).toContain('count');
    expect(corrective[3]).toContain('You set numeric state (confidence = 0.9)');
    expect(events.filter((e) => e.type === 'rejected')).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: 'accepted', attempt: 5 });
  });

  it('rejects prose around the JSON, and accepts the correct answer on the 2nd try', async () => {
    const chatty = `Sure! Here is the plan:\n${good}\nHope this helps.`;
    const model = scripted([chatty, good]);
    const result = await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent, world);
    expect(result.ok).toBe(true);
    expect(model.prompts).toHaveLength(2);
    expect(model.prompts[1]!.user).toBe(
      `Your previous reply was rejected: Your reply had text around the JSON (it began "${chatty.slice(0, 40)}"). Reply with exactly one JSON object: no prose, no code fences.\nReturn a corrected JSON object; keep everything else the same.`,
    );
    expect(model.prompts[1]!.system).toBe(model.prompts[0]!.system);
  });

  it('a JSON object followed by chatter is prose, not broken JSON', async () => {
    const model = scripted([`${good}\n\nLet me know!`, good]);
    await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent, world);
    expect(model.prompts[1]!.user).toContain('text around the JSON');
  });

  it('numbers inside step args are allowed; numbers in step-level fields are numeric state', async () => {
    const model = scripted([JSON.stringify({ steps: [{ verb: 'chat', args: { message: 'x' }, priority: 3 }] }), good]);
    await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent, world);
    expect(model.prompts[1]!.user).toContain('steps[0].priority = 3');
  });

  it('after the budget the plan fails with llm_output_rejected and every complaint', async () => {
    const model = scripted(['nope', 'still nope', 'never']);
    const result = await createLlmPlanner({ complete: model.complete, config: config({ retryBudget: 1 }), registry }).plan(intent, world);
    expect(model.prompts).toHaveLength(2);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.code).toBe('llm_output_rejected');
    expect(result.failure.details).toHaveLength(2);
  });

  it('a complete() that never settles fails the attempt with llm_unavailable after completeTimeoutMs on the injected clock', async () => {
    const clock = new ManualClock();
    let settled = false;
    const planner = createLlmPlanner({ complete: () => new Promise<string>(() => {}), config: config({ completeTimeoutMs: 20_000 }), registry, clock });
    const pending = Promise.resolve(planner.plan(intent, world)).finally(() => (settled = true));
    await clock.advance(19_999);
    expect(settled).toBe(false);
    // Each attempt gets its own completeTimeoutMs; the retry budget runs out on the same clock.
    for (let i = 0; i < 5 && !settled; i += 1) await clock.advance(20_000);
    const result = await pending;
    expect(!result.ok && result.failure.code).toBe('llm_unavailable');
    expect(!result.ok && result.failure.reason).toContain('no reply within completeTimeoutMs 20000 ms');
    expect(clock.pending()).toBe(0);
  });

  it('a throwing complete() is llm_unavailable, not a crash', async () => {
    const result = await createLlmPlanner({ complete: () => Promise.reject(new Error('connection refused')), config: config(), registry }).plan(intent, world);
    expect(!result.ok && result.failure.code).toBe('llm_unavailable');
    expect(!result.ok && result.failure.reason).toContain('connection refused');
  });

  it('{previous} and {request} tokens in the corrective template carry the rejected reply and the original request', async () => {
    const model = scripted(['oops', good]);
    await createLlmPlanner({ complete: model.complete, config: config({ correctiveTemplate: 'Fix: {complaint}\nYou said: {previous}\nTask was:\n{request}' }), registry }).plan(intent, world);
    expect(model.prompts[1]!.user).toContain('You said: oops');
    expect(model.prompts[1]!.user).toContain(`Task was:\n${model.prompts[0]!.user}`);
  });
});

describe('cognition gate (seeds/001)', () => {
  const signal = (overrides: Partial<GateSignal> = {}): GateSignal => ({
    eventType: 'player_spoke',
    salience: 0.9,
    drivePressure: 0.5,
    arcHot: 0,
    relStakes: 0.4,
    energy: 1,
    choices: ['answer', 'ignore'],
    ...overrides,
  });
  const gateConfig = config().gate;

  it('M = weighted salience, drive pressure, arc, stakes minus fatigue; thinks only above threshold', () => {
    let now = 0;
    const gate = createCognitionGate(gateConfig, { now: () => now });
    const high = gate.evaluate(signal());
    expect(high.think).toBe(true);
    expect(high.meaningfulness).toBeCloseTo(0.5 * 0.9 + 0.3 * 0.5 + 0.3 * 0.4, 10);
    now = 60_000;
    const tired = gate.evaluate(signal({ salience: 0.3, drivePressure: 0.2, relStakes: 0, energy: 0.2 }));
    expect(tired.think).toBe(false);
    expect(tired.blocked).toEqual(['below_threshold']);
    expect(tired.meaningfulness).toBeCloseTo(0.15 + 0.06 - 0.16, 10);
  });

  it('trivial events, the cooldown (injected clock) and the lack of a real choice each block', () => {
    let now = 1_000;
    const gate = createCognitionGate(gateConfig, { now: () => now });
    expect(gate.evaluate(signal({ eventType: 'ambient_sound' })).blocked).toEqual(['trivial_event']);
    expect(gate.evaluate(signal({ choices: ['answer', 'answer'] })).blocked).toEqual(['no_real_choice']);
    expect(gate.evaluate(signal()).think).toBe(true);
    now += 9_999;
    const cooling = gate.evaluate(signal());
    expect(cooling.blocked).toEqual(['cooldown']);
    expect(cooling.reason).toContain('9999 ms of 10000 ms');
    now += 1;
    expect(gate.evaluate(signal()).think).toBe(true);
  });

  it('an out-of-range signal is blocked with the field named', () => {
    const decision = createCognitionGate(gateConfig, { now: () => 0 }).evaluate(signal({ salience: 3 }));
    expect(decision.blocked).toEqual(['invalid_signal']);
    expect(decision.reason).toContain('salience');
  });

  it('a closed gate means the model is never called: gate_closed', async () => {
    const model = scripted([good]);
    const planner = createLlmPlanner({ complete: model.complete, config: config(), registry, signal: () => signal({ choices: ['only one'] }) });
    const result = await planner.plan(intent, world);
    expect(!result.ok && result.failure.code).toBe('gate_closed');
    expect(model.prompts).toHaveLength(0);
  });

  it('createLlmPlanner acts on config.gate: a trivial intent never reaches complete(), a meaningful one does, then the cooldown holds', async () => {
    const model = scripted([good, good]);
    const clock = new ManualClock(5_000);
    const planner = createLlmPlanner({ complete: model.complete, config: config(), registry, clock });
    const ask = (id: string, extra: object) => planner.plan(IntentSchema.parse({ id, source: 'user', goal: 'answer the player', urgency: 0.6, ...extra }), world);
    const trivial = await ask('t', { context: { eventType: 'ambient_sound' } });
    expect(!trivial.ok && trivial.failure).toMatchObject({ code: 'gate_closed', reason: expect.stringContaining('"ambient_sound" is trivial') });
    const idle = await ask('i', { source: 'system', urgency: 0.1 });
    expect(!idle.ok && idle.failure).toMatchObject({ code: 'gate_closed', reason: expect.stringMatching(/M 0\.\d+ < threshold 0\.5/) });
    expect(model.prompts).toHaveLength(0);
    expect((await ask('m', {})).ok).toBe(true);
    await clock.advance(9_999);
    expect(await ask('m2', {})).toMatchObject({ ok: false, failure: { code: 'gate_closed', reason: expect.stringContaining('cooldown') } });
    await clock.advance(1);
    expect((await ask('m3', {})).ok).toBe(true);
    expect(model.prompts).toHaveLength(2);
  });
});
