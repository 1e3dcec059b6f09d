import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from '../src/demo.js';

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm run demo -- --goal <item> --count n --inventory … --world terrain --seed N', () => {
  it('a user goal in a generated world: the given inventory is used (the held table placed, not crafted), the count is met, steps printed', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sinew-goal-'));
    let text = '';
    const out = new Writable({ write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString()), done()) }) as unknown as NodeJS.WriteStream;
    const result = await runDemo({ port: 0, keepAlive: false, provenancePath: join(scratch, 'p.jsonl'), goal: 'chest', count: 2, inventory: { crafting_table: 1, stick: 3 }, world: 'terrain', seed: 3, out });
    expect(result.exitCode, text).toBe(0);
    expect(result.held).toBe(2);
    expect(text).toContain('crafting_table ×1, stick ×3 → chest ×2');
    expect(text).toContain('generated terrain, seed 3');
    const steps = result.outcome?.steps.filter((s) => s.status === 'succeeded').map((s) => `${s.verb}`) ?? [];
    expect(steps).toEqual(expect.arrayContaining(['gather', 'place_block', 'craft_item']));
    expect(text).not.toMatch(/craft_item item=crafting_table/);
    expect(text).toMatch(/result {5}✔ chest ×2 in [\d.]+ s \(\d+ steps, \d+ repairs?, 0 deaths\)/);
  }, 240_000);
});
