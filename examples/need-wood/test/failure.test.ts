import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { exitCodeFor, runDemo } from '../src/demo.js';

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('runDemo with a plan that cannot work', () => {
  it('stops at the failing step and maps its code to the exit code', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sinew-demo-fail-'));
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const result = await runDemo({
      port: 0,
      keepAlive: false,
      provenancePath: join(scratch, 'provenance.jsonl'),
      out: out as unknown as NodeJS.WriteStream,
      // No logs, no table: the pickaxe's ingredients are missing.
      planSource: async ({ intent }) => ({
        planId: 'doomed',
        intentId: intent.id,
        planner: 'test',
        steps: [{ stepId: 'craft-pickaxe', type: 'craft_item', args: { item: 'wooden_pickaxe' } }],
      }),
    });
    expect(result.outcome.status).toBe('failed');
    expect(result.outcome.failure?.code).toBe('precond_missing');
    expect(result.outcome.failure?.missing).toEqual(['has_item:oak_planks:3', 'has_item:stick:2', 'near_block:crafting_table']);
    expect(result.exitCode).toBe(exitCodeFor('precond_missing'));
    expect(result.exitCode).toBe(13);
    expect(text).toContain('✘ craft-pickaxe failed: precond_missing');
  });

  it('maps every error code to a distinct non-zero exit code', () => {
    const codes = ['unknown_verb', 'invalid_args', 'guard_failed', 'precond_missing', 'stuck', 'effects_unmet'] as const;
    const exits = codes.map((code) => exitCodeFor(code));
    expect(new Set(exits).size).toBe(codes.length);
    expect(exits.every((code) => code >= 10)).toBe(true);
  });
});
