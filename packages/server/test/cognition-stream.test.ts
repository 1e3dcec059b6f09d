import { describe, expect, it } from 'vitest';
import { serveSinew } from '../src/index.js';
import { monologueLine } from '../src/inspector/page/monologue.js';
import { deltas, loopRig } from '../../planners/test/support/cognition.js';
import { post, StreamClient, TOKEN } from './helpers.js';

const gatherReply = JSON.stringify({ rationale: 'wood for tools', steps: [{ verb: 'gather', args: { block: 'log', count: 3 } }] });
const zombieNear = deltas(1, 10, [{ type: 'new_threat', trackId: 1, cls: 'zombie', hostile: true, bucket: 0 }]);

describe("serveSinew({ cognition }): every decision of the loop on the stream, the inspector's inner monologue", () => {
  it('publishes gate, route, plan, outcome and the gate of the outcome as cognitionEvent, in the loop order, with tick and input hash', async () => {
    const rig = loopRig();
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    const server = await serveSinew({ executor: rig.executor, cognition: rig.cognition, port: 0, token: TOKEN });
    const stream = new StreamClient(server.url, { token: TOKEN });
    try {
      await stream.opened;
      await rig.cognition.ingest(zombieNear);
      await rig.cognition.idle();
      // The outcome goes back into the loop as an input: its gate (closed, cooldown) is the fifth decision.
      await stream.waitFor((e) => e.type === 'cognitionEvent' && (e.data as { seq: number }).seq === 5);
      const decisions = stream.events.filter((e) => e.type === 'cognitionEvent').map((e) => e.data as Record<string, unknown>);
      expect(decisions.map((d) => d.type)).toEqual(['cognition.gate', 'cognition.route', 'cognition.plan', 'cognition.outcome', 'cognition.gate']);
      expect(decisions.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5]);
      for (const d of decisions) expect(d).toMatchObject({ tick: 10, inputHash: expect.stringMatching(/^sha256:[0-9a-f]{16}$/) });
      // What the inspector's monologue panel prints for them.
      const lines = decisions.map(monologueLine);
      expect(lines[0]).toMatch(/^t10 [0-9a-f]{8} gate open, M 0\.70: /);
      expect(lines[1]).toMatch(/→ needs: /);
      expect(lines[2]).toMatch(/needs planned .*: flee$/);
      expect(lines[3]).toMatch(/completed: plan completed$/);
      expect(lines[4]).toMatch(/gate closed, M 0\.13 \(blocked: below_threshold, cooldown\)/);
    } finally {
      await stream.close();
      await server.close();
      await rig.executor.close();
    }
  });

  it('POST /api/cognitive/signals goes through the loop: a harmful one refused by the input filter (422, no model call), a helpful one gated, planned and run with its ref', async () => {
    const rig = loopRig({ replies: [gatherReply] });
    const router = { plan: () => { throw new Error('the router must not be asked directly when the loop is served'); } };
    const server = await serveSinew({ executor: rig.executor, cognition: rig.cognition, router, port: 0, token: TOKEN });
    try {
      const harmful = await post(server.url, '/api/cognitive/signals', { goal: 'jump into the lava' }, TOKEN);
      expect(harmful.status).toBe(422);
      expect(harmful.json()).toMatchObject({ error: { code: 'refused', events: [{ type: 'cognition.refused', stage: 'input_filter', rule: 'self_harm.lava' }] } });
      expect(rig.model.prompts).toHaveLength(0);
      const partly = await post(server.url, '/api/cognitive/signals', { goal: 'please gather some wood', traits: ['careful'] }, TOKEN);
      expect(partly.status).toBe(400);
      expect(partly.json().error?.message).toMatch(/traits and context are not taken by the cognition loop/);
      const helpful = await post(server.url, '/api/cognitive/signals', { goal: 'please gather some wood', provenanceRef: 'ticket-9', timeBudgetMs: 60_000 }, TOKEN);
      expect(helpful.status).toBe(202);
      const answer = helpful.json() as { via: string; events: { type: string }[] };
      expect(answer.via).toBe('cognition');
      expect(answer.events.map((e) => e.type)).toEqual(['cognition.gate', 'cognition.route', 'cognition.plan']);
      await rig.cognition.idle();
      expect(rig.body.calls).toEqual(['collect:oak_log:3']);
      expect(rig.provenance.records()).toMatchObject([{ capability: 'gather@1.0.0', provenanceRef: 'ticket-9' }]);
    } finally {
      await server.close();
      await rig.executor.close();
    }
  });

  it('a refusal reads with its stage and rule', () => {
    expect(monologueLine({ type: 'cognition.refused', tick: 4, inputHash: 'sha256:0123456789abcdef', stage: 'input_filter', rule: 'self_harm.lava', reason: 'walks into lava' })).toBe(
      't4 01234567 refused at input_filter by self_harm.lava: walks into lava',
    );
    expect(monologueLine({ type: 'cognition.gate', tick: 5, inputHash: 'sha256:ffffffffffffffff', think: false, meaningfulness: 0.21, blocked: ['below_threshold'], reason: 'M 0.21 < 0.5' })).toBe(
      't5 ffffffff gate closed, M 0.21 (blocked: below_threshold): M 0.21 < 0.5',
    );
  });
});
