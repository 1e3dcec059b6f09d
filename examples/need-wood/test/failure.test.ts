import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor, runDemo } from '../src/demo.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sinew-demo-fail-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function capture(): { out: NodeJS.WriteStream; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { out: out as unknown as NodeJS.WriteStream, text: () => text };
}

describe('runDemo without precondition repair', () => {
  it('the planned pickaxe step fails on the sticks the HTN left out; its code is the exit code; the router records the failure', async () => {
    const { out, text } = capture();
    const memoryPath = join(scratch, 'memory.json');
    const result = await runDemo({ port: 0, keepAlive: false, provenancePath: join(scratch, 'provenance.jsonl'), memoryPath, repair: false, out });
    expect(result.outcome?.status, text()).toBe('failed');
    expect(result.outcome?.failedStepId).toBe('s5');
    expect(result.outcome?.failure?.code).toBe('precond_missing');
    expect(result.outcome?.failure?.missing).toEqual(['has_item:stick:2']);
    expect(result.outcome?.repairs).toBe(0);
    expect(result.exitCode).toBe(exitCodeFor('precond_missing'));
    expect(result.exitCode).toBe(13);
    expect(text()).toContain('✘ s5 failed: precond_missing');
    expect(text()).not.toContain('⚒ repair');
    expect(result.routeEvents.find((e) => e.type === 'outcome')).toMatchObject({ planner: 'htn', success: false });
    const saved = JSON.parse(await readFile(memoryPath, 'utf8')) as { outcomes: Record<string, Record<string, unknown>> };
    expect(Object.values(saved.outcomes['planner:htn'] ?? {})).toEqual([{ successes: 0, failures: 1 }]);
  });

  it('a corrupt planner memory file is a clear error naming the file, before any server starts', async () => {
    const memoryPath = join(scratch, 'corrupt.json');
    await writeFile(memoryPath, '{"version": 2}');
    const { out } = capture();
    await expect(runDemo({ port: 0, keepAlive: false, provenancePath: join(scratch, 'p.jsonl'), memoryPath, out })).rejects.toThrow(
      `planner memory ${memoryPath}: memory_file_invalid`,
    );
  });

  it('maps every error code to a distinct non-zero exit code', () => {
    const codes = ['unknown_verb', 'invalid_args', 'guard_failed', 'precond_missing', 'stuck', 'effects_unmet'] as const;
    const exits = codes.map((code) => exitCodeFor(code));
    expect(new Set(exits).size).toBe(codes.length);
    expect(exits.every((code) => code >= 10)).toBe(true);
  });
});
