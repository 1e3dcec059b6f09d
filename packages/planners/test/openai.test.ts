import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IntentSchema } from '@sinew/executor-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompletionError, createLlmPlanner, loadCognitionConfig, openAiCompatibleComplete, planOutputSchema } from '../src/index.js';
import { fakeRegistry } from './support/fake-minecraft.js';

/** A local OpenAI-compatible endpoint on 127.0.0.1: answers from a queue and records the requests. */
let server: Server;
let baseUrl: string;
const requests: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
const answers: ({ status: number; body: string } | 'stall_body')[] = [];
const stalled: ServerResponse[] = [];

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    requests.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(await read(req)) });
    const answer = answers.shift() ?? { status: 500, body: 'no answer queued' };
    if (answer === 'stall_body') {
      // Headers and half a body, then silence: the client must time out while reading the body.
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"choices":[');
      stalled.push(res);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  for (const res of stalled) res.destroy();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const reply = (content: string) => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }) });

describe('OpenAI-compatible complete() over fetch', () => {
  it('posts system + user messages to /chat/completions and returns the content', async () => {
    answers.push(reply('{"steps":[]}'));
    const complete = openAiCompatibleComplete({ baseUrl, model: 'local-model', apiKey: 'k', temperature: 0, jsonMode: true, timeoutMs: 5000 });
    expect(await complete({ system: 'sys', user: 'hi' })).toBe('{"steps":[]}');
    const request = requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.auth).toBe('Bearer k');
    expect(request.body).toEqual({
      model: 'local-model',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0,
      response_format: { type: 'json_object' },
    });
  });

  it('HTTP errors and malformed responses are coded CompletionErrors', async () => {
    const complete = openAiCompatibleComplete({ baseUrl, model: 'm', timeoutMs: 5000 });
    answers.push({ status: 503, body: 'overloaded' });
    await expect(complete({ system: 's', user: 'u' })).rejects.toMatchObject({ code: 'http_error' });
    answers.push({ status: 200, body: '{"choices":[]}' });
    await expect(complete({ system: 's', user: 'u' })).rejects.toBeInstanceOf(CompletionError);
  });

  it('a server that stalls mid-body is a coded timeout, not a raw DOMException', async () => {
    const complete = openAiCompatibleComplete({ baseUrl, model: 'm', timeoutMs: 50 });
    answers.push('stall_body');
    const error = await complete({ system: 's', user: 'u' }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(CompletionError);
    expect(error).toMatchObject({ code: 'timeout' });
  });

  it('a bad timeoutMs is rejected when the adapter is built, with the field named', () => {
    for (const timeoutMs of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => openAiCompatibleComplete({ baseUrl, model: 'm', timeoutMs })).toThrow(/openAiCompatibleComplete: invalid config:.*\n.*\n.*timeoutMs/);
    }
    expect(() => openAiCompatibleComplete({ baseUrl, model: 'm', timeoutMs: 0 })).toThrow(expect.objectContaining({ code: 'invalid_config', where: 'openAiCompatibleComplete', path: ['timeoutMs'] }));
  });

  it('drives the LLM planner end to end: a bad reply, then a good one, over HTTP', async () => {
    const registry = fakeRegistry();
    const loaded = loadCognitionConfig({
      system: 'Plan with the listed verbs only. JSON only.',
      userTemplate: '{intent}\n{world}\n{verbs}',
      correctiveTemplate: 'Rejected: {complaint}',
      outputSchema: planOutputSchema(registry),
      retryBudget: 1,
      completeTimeoutMs: 10_000,
      gate: { threshold: 0, weights: { salience: 1, drivePressure: 0, arcHot: 0, relStakes: 0, fatigue: 0 }, cooldownMs: 0, trivialEvents: [] },
    });
    if (!loaded.ok) throw new Error(loaded.error.message);
    answers.push(reply(JSON.stringify({ steps: [{ verb: 'teleport', args: {} }] })), reply(JSON.stringify({ steps: [{ verb: 'chat', args: { message: 'on my way' } }] })));
    const before = requests.length;
    const planner = createLlmPlanner({ complete: openAiCompatibleComplete({ baseUrl, model: 'm', timeoutMs: 5000 }), config: loaded.config, registry });
    const result = await planner.plan(IntentSchema.parse({ id: 'h1', source: 'user', goal: 'come here', urgency: 0.3 }), {
      position: { x: 0, y: 64, z: 0 },
      health: 20,
      food: 20,
      heldItem: null,
      inventory: {},
      blocks: {},
    });
    expect(result.ok && result.plan.steps).toEqual([{ stepId: 's1', type: 'chat', args: { message: 'on my way' } }]);
    const sent = requests.slice(before).map((r) => (r.body.messages as { content: string }[])[1]!.content);
    expect(sent[1]).toMatch(/^Rejected: steps\[0\]\.verb "teleport" is not a registered verb/);
  });
});
