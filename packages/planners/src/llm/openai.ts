import { parseConfig } from '@sinew/executor-contracts';
import { z } from 'zod';
import type { CompleteFn } from './planner.js';

/** Options of the OpenAI-compatible `complete` function (endpoint, model, key). */
export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:8080/v1` (the `/chat/completions` path is appended). */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Sent as is; omitted when undefined. */
  readonly temperature?: number;
  /** Ask for `response_format: { type: 'json_object' }` (servers that support it). */
  readonly jsonMode?: boolean;
  readonly timeoutMs: number;
  /** Injectable for tests and proxies; default the global fetch. */
  readonly fetch?: typeof fetch;
}

const ChatResponseSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** A failed completion, with a code (thrown: `complete` is a promise of text). */
export class CompletionError extends Error {
  override readonly name = 'CompletionError';
  constructor(
    readonly code: 'http_error' | 'bad_response' | 'timeout' | 'network',
    message: string,
  ) {
    super(message);
  }
}

const OptionsTimeoutSchema = z.object({ timeoutMs: z.number().int().positive().max(600_000) });

/** A `complete` function over an OpenAI-compatible `/chat/completions` endpoint, using fetch; throws a `ConfigError` (`invalid_config`, path `['timeoutMs']`) on a bad `timeoutMs`. */
export function openAiCompatibleComplete(options: OpenAiCompatibleOptions): CompleteFn {
  const { timeoutMs } = parseConfig('openAiCompatibleComplete', OptionsTimeoutSchema, { timeoutMs: options.timeoutMs });
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return async ({ system, user }) => {
    const body = {
      model: options.model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.jsonMode ? { response_format: { type: 'json_object' } } : {}),
    };
    // One signal covers the request and the body: a server that stalls mid-body times out the same way.
    const transportError = (error: unknown) => {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return new CompletionError(timedOut ? 'timeout' : 'network', `${url}: ${error instanceof Error ? error.message : String(error)}`);
    };
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw transportError(error);
    }
    if (!response.ok) throw new CompletionError('http_error', `${url}: HTTP ${response.status}: ${text.slice(0, 200)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CompletionError('bad_response', `${url}: response is not JSON: ${text.slice(0, 200)}`);
    }
    const parsed = ChatResponseSchema.safeParse(json);
    if (!parsed.success) throw new CompletionError('bad_response', `${url}: unexpected response shape:\n${z.prettifyError(parsed.error)}`);
    return parsed.data.choices[0]!.message.content ?? '';
  };
}
