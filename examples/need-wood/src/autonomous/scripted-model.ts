import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: when the user prompt matches `when`, the model replies `steps`. */
export interface ScriptedAnswer {
  readonly when: RegExp;
  readonly rationale: string;
  readonly steps: readonly { readonly verb: string; readonly args: Readonly<Record<string, unknown>> }[];
}

/** A local OpenAI-compatible `/v1/chat/completions` endpoint that answers from a script (the demo's stand-in for a model). */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>/v1`, for `openAiCompatibleComplete({ baseUrl })`. */
  readonly baseUrl: string;
  /** Requests it answered. */
  calls(): number;
  close(): Promise<void>;
}

/** Starts the endpoint on a free loopback port; a prompt no answer matches gets HTTP 422 (the planner reports `llm_unavailable`). */
export async function startScriptedModel(script: readonly ScriptedAnswer[]): Promise<ScriptedModel> {
  let calls = 0;
  const server = createServer((request, response) => void answer(request, response));
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const reply = (status: number, json: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return reply(404, { error: `no route ${request.method} ${request.url}` });
    calls += 1;
    const messages = (JSON.parse(body) as { messages?: { role: string; content: string }[] }).messages ?? [];
    const user = messages.find((m) => m.role === 'user')?.content ?? '';
    const found = script.find((entry) => entry.when.test(user));
    if (!found) return reply(422, { error: 'the script has no answer for this prompt' });
    reply(200, { choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: found.rationale, steps: found.steps }) } }] });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
