import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { runDemo } from '../src/demo.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

it('a zombie appearing mid-story is handled by the modes (defense preempts) and the plan still completes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sinew-survival-'));
  dirs.push(dir);
  let text = '';
  const out = new Writable({ write: (chunk: Buffer, _encoding, done) => void ((text += chunk.toString()), done()) }) as unknown as NodeJS.WriteStream;
  const result = await runDemo({ port: 0, keepAlive: false, provenancePath: join(dir, 'trace.jsonl'), zombie: true, out });
  expect(text).toMatch(/⚡ defense: (flee|attack_entity)/);
  expect(result.outcome?.status, text).toBe('completed');
  expect(result.held).toBeGreaterThanOrEqual(1);
}, 180_000);
