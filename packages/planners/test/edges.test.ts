import { IntentSchema, type Intent } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import {
  createLlmPlanner,
  createRouter,
  DEFAULT_MAX_PROMPT_BYTES,
  DEFAULT_ROUTING_RULES,
  planFailure,
  type Planner,
  type RouteEvent,
  type PlannerWorld,
} from '../src/index.js';
import { config, registry, scripted } from './support/llm.js';

// Issue 12, item 9: the planners' edges. Every case here once threw, hung or grew without bound.
const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: { oak_log: 2 }, blocks: {} };
const intent = (goal = 'build something nice'): Intent => IntentSchema.parse({ id: 'edge', source: 'user', goal, urgency: 0.5, traits: ['ambiguous'] });
const good = JSON.stringify({ steps: [{ verb: 'chat', args: { message: 'hi' } }] });
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
function errorWithThrowingMessage(): Error {
  const error = new Error('x');
  Object.defineProperty(error, 'message', { get: () => { throw new Error('getter'); } });
  return error;
}

describe('LLM planner edges: plan() never throws', () => {
  it('turns a reply nested 1,800 deep into a coded failure, not a stack overflow', async () => {
    const deep = `{"steps":[{"verb":"chat","args":{"message":"hi"}}],"note":${'['.repeat(1_800)}1${']'.repeat(1_800)}}`;
    const model = scripted([deep, deep, deep]);
    const result = await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent(), world);
    expect(result).toMatchObject({ ok: false, failure: { code: 'llm_output_rejected', details: expect.arrayContaining([expect.stringContaining('nested deeper than 64 levels')]) } });
  });

  it.each([
    ['a number', 42],
    ['undefined', undefined],
    ['an object', { text: good }],
    ['a revoked Proxy', revoked()],
  ])('a complete() that resolves %s is llm_unavailable', async (_label, value) => {
    const result = await createLlmPlanner({ complete: async () => value as never, config: config(), registry }).plan(intent(), world);
    // Awaiting a revoked Proxy throws (its `then` cannot be read), so that one reads as a failed call.
    expect(result).toMatchObject({ ok: false, failure: { code: 'llm_unavailable', reason: expect.stringMatching(/not a string|proxy that has been revoked/) } });
  });

  it.each([
    ['a revoked Proxy', revoked],
    ['an Error whose message getter throws', errorWithThrowingMessage],
    ['Object.create(null)', () => Object.create(null)],
    ['undefined', () => undefined],
  ])('a complete() that rejects with %s, or throws it synchronously, is llm_unavailable', async (_label, make) => {
    const rejecting = createLlmPlanner({ complete: () => Promise.reject(make()), config: config(), registry });
    expect(await rejecting.plan(intent(), world)).toMatchObject({ ok: false, failure: { code: 'llm_unavailable' } });
    const throwing = createLlmPlanner({ complete: () => { throw make(); }, config: config(), registry });
    expect(await throwing.plan(intent(), world)).toMatchObject({ ok: false, failure: { code: 'llm_unavailable' } });
  });

  it('a hostile intent is invalid_intent; a throwing renderer or listener is planner_error', async () => {
    const planner = createLlmPlanner({ complete: async () => good, config: config(), registry });
    expect(await planner.plan({ id: 'x', traits: 'nope' } as never, world)).toMatchObject({ ok: false, failure: { code: 'invalid_intent' } });
    expect(await planner.plan(revoked() as never, world)).toMatchObject({ ok: false, failure: { code: 'planner_error' } });
    const rendering = createLlmPlanner({ complete: async () => good, config: config(), registry, describeWorld: () => { throw new Error('no world'); } });
    expect(await rendering.plan(intent(), world)).toMatchObject({ ok: false, failure: { code: 'planner_error', reason: 'llm planner failed: no world' } });
  });
});

describe('LLM planner edges: literal templates and capped prompts', () => {
  it("substitutes $', $` and $& in a goal literally, and never fills a {token} inside a value", async () => {
    const goal = "say $' and $` and $& and {world}";
    const model = scripted([good]);
    await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent(goal), world);
    const user = model.prompts[0]!.user;
    expect(user).toContain(`goal: ${goal}\n`);
    expect(user.split('condition: healthy').length).toBe(2);
  });

  it("a 74-character reply of $' stays 74 characters in the corrective prompt (it once made a 132 MB prompt)", async () => {
    const reply = "$'".repeat(37);
    const model = scripted([reply, good]);
    const corrective = config({ correctiveTemplate: 'Rejected: {complaint}\nYou said: {previous}\nThe request was: {request}' });
    const result = await createLlmPlanner({ complete: model.complete, config: corrective, registry }).plan(intent(), world);
    expect(result.ok).toBe(true);
    expect(model.prompts[1]!.user).toContain(`You said: ${reply}\n`);
    expect(model.prompts[1]!.user.length).toBeLessThan(20_000);
  });

  it('refuses a prompt over maxPromptBytes (default 64 KiB) with prompt_too_large, before calling complete()', async () => {
    expect(DEFAULT_MAX_PROMPT_BYTES).toBe(65_536);
    const model = scripted([good]);
    const huge = { ...world, inventory: Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`item_${i}`, 1])) };
    expect(await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(intent(), huge)).toMatchObject({
      ok: false,
      failure: { code: 'prompt_too_large', reason: expect.stringContaining('over maxPromptBytes 65536') },
    });
    expect(await createLlmPlanner({ complete: model.complete, config: config(), registry, maxPromptBytes: 100 }).plan(intent(), world)).toMatchObject({ ok: false, failure: { code: 'prompt_too_large' } });
    expect(model.prompts).toHaveLength(0);
    expect(() => createLlmPlanner({ complete: model.complete, config: config(), registry, maxPromptBytes: 0 })).toThrow('maxPromptBytes must be a positive integer');
  });

  it('a corrective prompt that outgrows the cap (a huge reply) ends prompt_too_large, not a bigger prompt', async () => {
    const model = scripted(['x'.repeat(70_000)]);
    const corrective = config({ correctiveTemplate: 'Rejected: {complaint}\nYou said: {previous}' });
    const result = await createLlmPlanner({ complete: model.complete, config: corrective, registry }).plan(intent(), world);
    expect(result).toMatchObject({ ok: false, failure: { code: 'prompt_too_large', reason: expect.stringContaining('attempt 2') } });
  });
});

describe('router edges: every planner result is validated', () => {
  const chat: Planner = {
    name: 'htn',
    verbs: () => ['chat'],
    plan: (i) => ({ ok: true, planner: 'htn', plan: { planId: `p-${i.id}`, intentId: i.id, steps: [{ stepId: 's1', type: 'chat', args: { message: 'hi' } }] } }),
  };
  const garbage = (value: () => unknown): Planner => ({ name: 'llm', verbs: () => [], plan: () => value() as never });
  const routed = async (first: Planner) => {
    const events: RouteEvent[] = [];
    const router = createRouter({ planners: [first, { ...chat, name: 'needs' }], rules: [{ name: 'all', goal: /./, route: ['llm', 'needs'], weight: 1 }], onEvent: (e) => events.push(e) });
    const result = await router.plan(intent(), world);
    return { result, fallback: events.find((e) => e.type === 'fallback') };
  };

  it.each([
    ['a string', () => 'a plan'],
    ['{ steps: "x" }', () => ({ steps: 'x' })],
    ['ok with a plan whose steps is a string', () => ({ ok: true, planner: 'llm', plan: { planId: 'p', intentId: 'i', steps: 'x' } })],
    ['ok: false with an unknown code', () => planFailure('llm', 'made_up' as never, 'x')],
    ['undefined', () => undefined],
    ['a revoked Proxy', revoked],
    ['a Promise of garbage', () => Promise.resolve(42)],
  ])('a planner returning %s is a planner_error fallback event and the next planner plans', async (_label, value) => {
    const { result, fallback } = await routed(garbage(value));
    expect(result).toMatchObject({ ok: true, planner: 'htn' });
    expect(fallback).toMatchObject({ from: 'llm', to: 'needs', reason: expect.stringMatching(/^planner_error: plan\(\) (returned|threw: Cannot perform 'get' on a proxy)/) });
  });

  it('a planner throwing a revoked Proxy or an Error with a throwing message getter is a planner_error fallback', async () => {
    for (const thrown of [revoked(), errorWithThrowingMessage()]) {
      const { result, fallback } = await routed(garbage(() => { throw thrown; }));
      expect(result.ok).toBe(true);
      expect(fallback?.reason).toMatch(/^planner_error: plan\(\) threw: /);
    }
  });

  it('a hostile intent is invalid_intent; a throwing listener is planner_error — router.plan never rejects', async () => {
    const router = createRouter({ planners: [chat], rules: DEFAULT_ROUTING_RULES });
    expect(await router.plan({ goal: 7 } as never, world)).toMatchObject({ ok: false, failure: { code: 'invalid_intent', planner: 'router' } });
    const loud = createRouter({ planners: [chat], rules: DEFAULT_ROUTING_RULES, onEvent: () => { throw new Error('listener'); } });
    expect(await loud.plan(intent('craft a stick'), world)).toMatchObject({ ok: false, failure: { code: 'planner_error', reason: 'router failed: listener' } });
  });
});
