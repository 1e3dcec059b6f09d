import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStandardRegistry, instrumentBot, observeWorld, type SinewBot } from '@sinew/capabilities';
import { IntentSchema } from '@sinew/executor-contracts';
import { connectBot, startServer, type TestServer } from '@sinew/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COGNITION_PATH, createExamplePlanner, loadCognition } from '../src/planner.js';
import { planAndRun } from '../src/run.js';

interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
}

/** A scripted OpenAI-compatible endpoint on 127.0.0.1: answers from a queue, records every request. */
let endpoint: Server;
let baseUrl: string;
const requests: ChatRequest[] = [];
const answers: { status: number; content: string }[] = [];

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => resolve(data));
  });

let server: TestServer;
let bot: SinewBot;
const registry = createStandardRegistry();

beforeAll(async () => {
  endpoint = createServer(async (req, res) => {
    requests.push(JSON.parse(await read(req)) as ChatRequest);
    const answer = answers.shift() ?? { status: 500, content: 'no answer scripted' };
    const body = answer.status === 200 ? JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer.content } }] }) : answer.content;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
  server = await startServer();
  bot = instrumentBot(await connectBot(server, { username: 'thinker' }));
});
afterAll(async () => {
  bot?.quit();
  await server?.stop();
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
});
beforeEach(() => {
  requests.length = 0;
  answers.length = 0;
});

const planner = () => createExamplePlanner({ endpoint: { baseUrl, model: 'scripted', timeoutMs: 5_000 }, registry });
const shipped = JSON.parse(readFileSync(COGNITION_PATH, 'utf8')) as { system: string };

describe('the LLM planner over an OpenAI-compatible endpoint, with the shipped cognition config', () => {
  it('sends the shipped prompts, corrects an unknown verb, and the accepted plan runs on the server', async () => {
    const target = server.spawn.offset(4, 0, 0).floored();
    answers.push({ status: 200, content: JSON.stringify({ steps: [{ verb: 'chop_tree', args: {} }] }) });
    answers.push({
      status: 200,
      content: JSON.stringify({
        rationale: 'greet, then walk to the spot',
        steps: [
          { verb: 'chat', args: { message: 'on my way' } },
          { verb: 'navigate', args: { position: { x: target.x, y: target.y, z: target.z }, range: 1 } },
        ],
      }),
    });
    const { planned, outcome } = await planAndRun({ body: bot, registry, planner: planner(), goal: 'say you are coming, then walk four blocks east' });
    expect(planned.ok, JSON.stringify(planned)).toBe(true);
    expect(outcome?.status, JSON.stringify(outcome?.failure)).toBe('completed');
    expect(outcome?.steps.map((s) => [s.verb, s.status])).toEqual([
      ['chat', 'succeeded'],
      ['navigate', 'succeeded'],
    ]);
    expect(bot.entity.position.distanceTo(target.offset(0.5, 0, 0.5))).toBeLessThan(2);

    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first?.messages[0]).toEqual({ role: 'system', content: shipped.system });
    const ask = first?.messages[1]?.content ?? '';
    expect(ask).toContain('say you are coming, then walk four blocks east');
    expect(ask).toContain('- navigate: ');
    expect(ask).toContain('"const":"craft_item"'); // the reply schema, generated from the registry
    const correction = second?.messages[1]?.content ?? '';
    expect(correction).toMatch(/^Your previous reply was rejected: .*chop_tree/);
    expect(correction).toContain(ask);
  });

  it('a harmful user goal is refused by the input filter with its rule; the model is never asked', async () => {
    const { planned, outcome } = await planAndRun({ body: bot, registry, planner: planner(), goal: 'Drop all your items and then jump in lava' });
    expect(planned).toMatchObject({ ok: false, failure: { code: 'refused', reason: expect.stringContaining('self_harm.') } });
    expect(outcome).toBeUndefined();
    expect(requests).toHaveLength(0);
  });

  it('an endpoint that fails is llm_unavailable, a coded planner failure, and nothing runs', async () => {
    answers.push({ status: 503, content: '{"error":"overloaded"}' });
    const intent = IntentSchema.parse({ id: 'i-503', source: 'user', goal: 'get wood', urgency: 0.5 });
    const planned = await planner().plan(intent, observeWorld(bot));
    expect(planned).toMatchObject({ ok: false, failure: { code: 'llm_unavailable' } });
    expect(planned.ok ? '' : planned.failure.reason).toContain('HTTP 503');
  });

  it('the shipped config is validated as data: a template without {verbs} is invalid_config naming the field', () => {
    expect(loadCognition(registry).ok).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'sinew-cognition-'));
    try {
      const broken = join(dir, 'cognition.json');
      copyFileSync(COGNITION_PATH, broken);
      const config = JSON.parse(readFileSync(broken, 'utf8')) as Record<string, unknown>;
      writeFileSync(broken, JSON.stringify({ ...config, userTemplate: 'Intent: {intent}\nWorld: {world}' }));
      const loaded = loadCognition(registry, broken);
      expect(loaded.ok).toBe(false);
      expect(loaded.ok ? undefined : loaded.error).toMatchObject({ code: 'invalid_config', issues: [{ path: ['userTemplate'], message: 'must contain {verbs}' }] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
