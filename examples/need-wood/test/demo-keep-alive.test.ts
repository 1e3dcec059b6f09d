import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { post, StreamClient } from '../../../packages/server/test/helpers.js';
import { runDemo } from './demo-process.js';

describe('npm run demo -- --keep-alive', () => {
  it('serves the inspector after the plan, prints its URL and a token, and the token drives the API and the stream', async () => {
    execFileSync(process.execPath, [fileURLToPath(new URL('../../../packages/server/scripts/build-inspector.mjs', import.meta.url))]);
    let checks: Promise<{ page: string; status: number; outcome: unknown }> | undefined;
    const { code, stdout } = await runDemo(['--port', '0', '--keep-alive', '--provenance', join(tmpdir(), 'sinew-demo-keep-alive.jsonl')], (out, stop) => {
      const found = /keep-alive: inspector (http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(out);
      if (!found || checks) return;
      const [, url, token] = found as unknown as [string, string, string];
      checks = (async () => {
        const page = await (await fetch(url)).text();
        const stream = new StreamClient(url, { token });
        await stream.opened;
        const plan = { planId: 'after-demo', intentId: 'keep-alive', steps: [{ stepId: 'hi', type: 'chat', args: { message: 'still here' } }] };
        const { status } = await post(url, '/api/cognitive/execute', plan, token);
        const done = await stream.waitFor((e) => e.type === 'executionComplete' && (e.data as { planId: string }).planId === 'after-demo', 20_000);
        await stream.close();
        stop();
        return { page, status, outcome: done.data };
      })().catch((error: unknown) => {
        stop();
        throw error;
      });
    });
    expect(stdout).toMatch(/inspect {2}http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{40,}/);
    const result = await checks;
    expect(result?.page).toContain('<title>Sinew inspector</title>');
    expect(result?.status).toBe(202);
    expect(result?.outcome).toMatchObject({ status: 'completed' });
    // Stopped with SIGTERM: a clean exit, or flying-squid's exit hook ending the process with 128 + 15.
    expect([0, 143]).toContain(code);
  });
});
