import type { Executor } from '@sinew/bt-runtime';
import type { Intent } from '@sinew/executor-contracts';
import { createRouter, type Planner, type RouteEvent } from '@sinew/planners';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, type SinewServer } from '../src/index.js';
import type { Body } from '../../bt-runtime/test/fake-body.js';
import { fakeExecutor, post, StreamClient, TOKEN } from './helpers.js';

const asked: string[] = [];
/** A planner that digs the block named in the goal ("dig log_2"); anything else is unsupported. */
const digger: Planner<unknown> = {
  name: 'digger',
  verbs: () => ['dig_block'],
  plan: (intent: Intent) => {
    asked.push(intent.goal);
    const ms = /^hold (\d+)$/.exec(intent.goal)?.[1];
    if (ms) return { ok: true, planner: 'digger', plan: { planId: `plan-${intent.id}`, intentId: intent.id, steps: [{ stepId: 'h1', type: 'hold', args: { ms: Number(ms) } }] } };
    const block = /^dig (\w+)$/.exec(intent.goal)?.[1];
    if (!block) return { ok: false, failure: { code: 'unsupported_goal', reason: `cannot "${intent.goal}"`, planner: 'digger' } };
    return { ok: true, planner: 'digger', plan: { planId: `plan-${intent.id}`, intentId: intent.id, steps: [{ stepId: 'd1', type: 'dig_block', args: { block } }] } };
  },
};

describe('POST /api/cognitive/signals → Intent → the wired router → plan on the stream', () => {
  let executor: Executor<Body>;
  let server: SinewServer;
  let stream: StreamClient;
  const routed: RouteEvent[] = [];

  beforeAll(async () => {
    ({ executor } = fakeExecutor());
    const router = createRouter<unknown>({ planners: [digger], rules: [{ name: 'dig', goal: /^(dig|hold) /, route: ['digger'], weight: 1 }], onEvent: (e) => routed.push(e) });
    server = await serveSinew({ executor, port: 0, token: TOKEN, router, observe: () => ({ tick: 1 }) });
    stream = new StreamClient(server.url, { token: TOKEN });
    await stream.opened;
  });
  afterAll(async () => {
    await stream.close();
    await server.close();
    await executor.close();
  });

  it('turns the suggestion into an Intent, publishes planGenerated with the router reason, runs the plan', async () => {
    const res = await post(server.url, '/api/cognitive/signals', { goal: 'dig log_2', urgency: 0.7, traits: ['multi_step'] }, TOKEN);
    expect(res.status).toBe(202);
    const { planId, intentId, planner } = res.json() as { planId: string; intentId: string; planner: string };
    expect(planner).toBe('digger');
    const generated = await stream.waitFor((e) => e.type === 'planGenerated');
    expect(generated.data).toMatchObject({ planner: 'digger', reason: expect.stringContaining('digger'), intent: { id: intentId, source: 'user', goal: 'dig log_2', urgency: 0.7, traits: ['multi_step'] } });
    const done = await stream.waitFor((e) => e.type === 'executionComplete' && (e.data as { planId: string }).planId === planId);
    expect(done.data).toMatchObject({ status: 'completed' });
    await expect.poll(() => routed.some((e) => e.type === 'outcome' && e.planId === planId && e.success)).toBe(true);
  });

  it('a harmful suggestion is refused by the input filter with its rule, before any planner runs', async () => {
    const before = asked.length;
    const res = await post(server.url, '/api/cognitive/signals', { goal: 'dig log_1 then walk into the lava' }, TOKEN);
    expect(res.status).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'refused', safety: { allowed: false, reason: expect.stringContaining('self_harm.lava') } });
    expect(asked.length).toBe(before);
  });

  it('timeBudgetMs becomes the plan deadline and provenanceRef travels with the intent', async () => {
    const res = await post(server.url, '/api/cognitive/signals', { goal: 'hold 60000', timeBudgetMs: 40, provenanceRef: 'chat:alex:7' }, TOKEN);
    expect(res.status).toBe(202);
    const { planId } = res.json() as { planId: string };
    const generated = await stream.waitFor((e) => e.type === 'planGenerated' && (e.data as { plan: { planId: string } }).plan.planId === planId);
    expect(generated.data).toMatchObject({ intent: { timeBudgetMs: 40, provenanceRef: 'chat:alex:7' } });
    const done = await stream.waitFor((e) => e.type === 'executionComplete' && (e.data as { planId: string }).planId === planId);
    expect(done.data).toMatchObject({ status: 'failed', failure: { code: 'timeout', reason: expect.stringContaining('time budget of 40 ms') } });
  });

  it('no plan → 422 no_plan with the planner failure; unknown keys → 400', async () => {
    const none = await post(server.url, '/api/cognitive/signals', { goal: 'dance' }, TOKEN);
    expect(none.status).toBe(422);
    expect(none.json().error).toMatchObject({ code: 'no_plan', failure: { code: 'no_route' } });
    const typo = await post(server.url, '/api/cognitive/signals', { goal: 'dig log_1', urgncy: 1 }, TOKEN);
    expect(typo.status).toBe(400);
    expect(typo.json().error?.issues?.[0]).toMatchObject({ code: 'unrecognized_keys' });
  });
});

describe('the input filter fails closed', () => {
  it('a router whose screen throws refuses the suggestion (422 refused) and never plans', async () => {
    const { executor } = fakeExecutor();
    let planned = 0;
    const router = {
      screen: (): Intent => {
        throw new Error('rules file unreadable');
      },
      plan: () => ((planned += 1), { ok: false, failure: { code: 'no_route', reason: 'unused' } }),
    };
    const server = await serveSinew({ executor, port: 0, token: TOKEN, router });
    try {
      const res = await post(server.url, '/api/cognitive/signals', { goal: 'dig log_1' }, TOKEN);
      expect(res.status).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'refused', safety: { allowed: false, reason: expect.stringContaining('rules file unreadable') } });
      expect(planned).toBe(0);
    } finally {
      await server.close();
      await executor.close();
    }
  });
});

describe("a router's answer is checked with the contracts' PlanResultSchema (the one the router checks each planner's with)", () => {
  it('a failure code outside PLANNER_ERROR_CODES, or a plan that does not name its planner, is 502 planner_error and runs nothing', async () => {
    const { executor } = fakeExecutor();
    const answers: unknown[] = [
      { ok: false, failure: { code: 'out_of_ideas', reason: 'no', planner: 'x' } },
      { ok: true, plan: { planId: 'p-x', intentId: 'i-x', steps: [{ stepId: 'd1', type: 'dig_block', args: { block: 'log_1' } }] } },
    ];
    const router = { plan: () => answers.shift() };
    const server = await serveSinew({ executor, port: 0, token: TOKEN, router });
    try {
      for (const _ of [1, 2]) {
        const res = await post(server.url, '/api/cognitive/signals', { goal: 'dig log_1' }, TOKEN);
        expect(res.status).toBe(502);
        expect(res.json().error).toMatchObject({ code: 'planner_error', message: expect.stringContaining('malformed') });
      }
      expect(answers).toHaveLength(0);
    } finally {
      await server.close();
      await executor.close();
    }
  });
});
