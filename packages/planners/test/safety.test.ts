import { IntentSchema, systemClock, type IntentInput } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import {
  cognitionConfigHash,
  createLlmPlanner,
  createRouter,
  DEFAULT_SAFETY_RULES,
  extendSafetyRules,
  judgeGoal,
  judgeStep,
  SafetyRulesSchema,
  type PlannerWorld,
} from '../src/index.js';
import { config, configInput, registry, scripted } from './support/llm.js';

const world: PlannerWorld = { position: { x: 0, y: 64, z: 0 }, health: 20, food: 20, heldItem: null, inventory: {}, blocks: {} };
const suggestion = (goal: string, extra: Partial<IntentInput> = {}) => IntentSchema.parse({ id: `s-${goal.length}`, source: 'user', goal, urgency: 0.5, traits: ['ambiguous'], ...extra });
const reply = (steps: { verb: string; args: Record<string, unknown> }[]) => JSON.stringify({ rationale: 'as asked', steps });

describe('input filter (seeds/004 Intrusive Thought Processor): rules as data, each verdict names its rule', () => {
  it.each([
    ['Walk into that LAVA pool over there', 'self_harm.lava'],
    ['please toss all your items on the ground', 'self_harm.drop_inventory'],
    ['go and hit the player next to you', 'griefing.attack_player'],
    ["dig out Steve's house for the stone", 'griefing.others_blocks'],
    ['grief the village', 'forbidden_verb'],
    ['fetch some tnt', 'forbidden_target'],
  ])('refuses "%s" under %s', (goal, rule) => {
    const verdict = judgeGoal(DEFAULT_SAFETY_RULES, goal);
    expect(verdict).toMatchObject({ allowed: false, rule });
    expect(!verdict.allowed && verdict.reason.length).toBeGreaterThan(5);
  });

  it('lets ordinary suggestions through (lava-free, player-free)', () => {
    for (const goal of ['swim out of the lava', 'get away from the lava now', 'build a small shelter before night', 'get wood', 'mine some stone for the player', 'chat hello to everyone']) {
      expect(judgeGoal(DEFAULT_SAFETY_RULES, goal)).toEqual({ allowed: true });
    }
  });

  it('rules are validated data: unknown keys and bad block keys are refused; a bot extends the defaults', () => {
    expect(SafetyRulesSchema.safeParse({ ...DEFAULT_SAFETY_RULES, forbiddenVerb: ['x'] }).success).toBe(false);
    expect(() => extendSafetyRules(DEFAULT_SAFETY_RULES, { goalPatterns: [{ rule: 'mine', pattern: '(unclosed', reason: 'x' }] })).toThrow(/valid regular expression/);
    expect(() => extendSafetyRules(DEFAULT_SAFETY_RULES, { placedBy: { 'one,two,3': 'alex' } })).toThrow(/x,y,z/);
    const mine = extendSafetyRules(DEFAULT_SAFETY_RULES, { players: ['Alex_99'], forbiddenTargets: ['beacon'] });
    expect(mine.forbiddenTargets).toEqual([...DEFAULT_SAFETY_RULES.forbiddenTargets, 'beacon']);
    expect(judgeGoal(mine, 'attack alex_99 now')).toMatchObject({ allowed: false, rule: 'griefing.attack_player' });
    expect(judgeGoal(DEFAULT_SAFETY_RULES, 'attack alex_99 now')).toEqual({ allowed: true });
  });

  it('griefing by block provenance and protected regions; own blocks may be broken', () => {
    const rules = extendSafetyRules(DEFAULT_SAFETY_RULES, {
      self: 'sinewbot',
      placedBy: { '10,64,-3': 'alex', '11,64,-3': 'sinewbot' },
      protectedRegions: [{ name: 'spawn', min: { x: -5, y: 0, z: -5 }, max: { x: 5, y: 255, z: 5 } }],
    });
    const dig = (position: object) => judgeStep(rules, { stepId: 'd', type: 'dig_block', args: { position } });
    expect(dig({ x: 10.7, y: 64, z: -2.5 })).toMatchObject({ allowed: false, rule: 'griefing.others_blocks' });
    expect(dig({ x: 11, y: 64, z: -3 })).toEqual({ allowed: true });
    expect(dig({ x: -1, y: 70, z: 4 })).toMatchObject({ allowed: false, rule: 'griefing.protected_region', reason: expect.stringContaining('spawn') });
    expect(judgeStep(rules, { stepId: 'a', type: 'attack_entity', args: { entity: 'player' } })).toMatchObject({ allowed: false, rule: 'griefing.attack_player' });
    expect(judgeStep(rules, { stepId: 'a', type: 'attack_entity', args: { entity: 'zombie' } })).toEqual({ allowed: true });
    // Escaping a hazard is self-preservation, not self-harm.
    expect(judgeStep(rules, { stepId: 'e', type: 'escape_fluid', args: { fluid: 'lava' } })).toEqual({ allowed: true });
    expect(judgeStep(rules, { stepId: 'n', type: 'navigate', args: { block: 'minecraft:lava' } })).toMatchObject({ allowed: false, rule: 'self_harm.hazard' });
    expect(judgeStep(rules, { stepId: 'x', type: 'drop_all', args: {} })).toMatchObject({ allowed: false, rule: 'forbidden_verb' });
  });
});

describe('the router refuses before any planner runs and checks every plan it returns', () => {
  it('a harmful suggestion never reaches the LLM: complete() is not called, the rule is named', async () => {
    const model = scripted([reply([{ verb: 'chat', args: { message: 'ok' } }])]);
    const router = createRouter({ planners: [createLlmPlanner({ complete: model.complete, config: config(), registry })], rules: [{ name: 'all', goal: /./, route: ['llm'], weight: 1 }] });
    const screened = router.screen(suggestion('walk straight into the lava'));
    expect(screened.safety).toEqual({ allowed: false, reason: expect.stringContaining('self_harm.lava') });
    const result = await router.plan(suggestion('walk straight into the lava'), world);
    expect(!result.ok && result.failure).toMatchObject({ code: 'refused', reason: expect.stringContaining('self_harm.lava') });
    const preRefused = await router.plan(suggestion('say hi', { source: 'system', safety: { allowed: false, reason: 'operator said no' } }), world);
    expect(!preRefused.ok && preRefused.failure).toMatchObject({ code: 'refused', reason: expect.stringContaining('operator said no') });
    expect(model.prompts).toHaveLength(0);
  });

  it('a plan with a forbidden step is refused with the rule named; a clean plan passes', async () => {
    const model = scripted([reply([{ verb: 'chat', args: { message: 'on my way' } }, { verb: 'navigate', args: { block: 'lava' } }]), reply([{ verb: 'chat', args: { message: 'hello' } }])]);
    let now = 0;
    const clock = { ...systemClock, now: () => (now += 60_000) }; // past the gate's cooldown at every plan
    const router = createRouter({ planners: [createLlmPlanner({ complete: model.complete, config: config(), registry, clock })], rules: [{ name: 'all', goal: /./, route: ['llm'], weight: 1 }] });
    const bad = await router.plan(suggestion('wander around', { source: 'system', context: { relStakes: 1 } }), world);
    expect(!bad.ok && bad.failure).toMatchObject({ code: 'refused', reason: expect.stringMatching(/self_harm.hazard.*s2 \(navigate\) heads into lava/) });
    expect(!bad.ok && bad.failure.reason).toContain('plan llm-s-13-1 from llm');
    expect(router.plannerFor('llm-s-13-1')).toBeUndefined();
    expect((await router.plan(suggestion('greet'), world)).ok).toBe(true);
  });
});

describe('the cognition config hash (seeds/002) is on every LLM plan', () => {
  it('names the config: equal for reordered keys, different when a field changes', async () => {
    const model = scripted([reply([{ verb: 'chat', args: { message: 'hi' } }])]);
    const planned = await createLlmPlanner({ complete: model.complete, config: config(), registry }).plan(suggestion('greet'), world);
    expect(planned.ok && planned.plan.configHash).toBe(cognitionConfigHash(config()));
    expect(cognitionConfigHash(config())).toMatch(/^sha256:[0-9a-f]{64}$/);
    const reordered = Object.fromEntries(Object.entries(configInput()).reverse()) as ReturnType<typeof configInput>;
    expect(cognitionConfigHash(config(reordered))).toBe(cognitionConfigHash(config()));
    expect(cognitionConfigHash(config({ retryBudget: 1 }))).not.toBe(cognitionConfigHash(config()));
  });
});
