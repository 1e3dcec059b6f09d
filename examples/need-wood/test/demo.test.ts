import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from './demo-process.js';

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('needs → router → HTN → executor: the pickaxe step fails on missing sticks, is repaired live and succeeds; exits 0', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sinew-demo-'));
    const provenance = join(scratch, 'provenance.jsonl');
    const memory = join(scratch, 'planner-memory.json');
    const { code, stdout, stderr, probe } = await runDemo(['--port', '0', '--provenance', provenance, '--memory', memory]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    // Scraped while the plan ran: the executor's metrics and health are live on 127.0.0.1.
    expect(probe?.metrics).toContain('# TYPE sinew_step_ttfa_seconds histogram');
    expect(probe?.metrics).toContain('# TYPE sinew_steps_total counter');
    expect(probe?.health).toMatchObject({ executor: { status: expect.any(String) } });
    // Perception → need → intent → route (with its reason) → the HTN's plan, which leaves sticks out.
    expect(stdout).toContain('thought  no pickaxe and no wood → need wood');
    expect(stdout).toMatch(/route {4}→ htn: htn [\d.]+ \(rules structured\+known_goal [\d.]+, prior 0\.50 from 0✓\/0✗\) in context need:tools/);
    expect(stdout).toMatch(/s5 +craft_item item=wooden_pickaxe count=1/);
    expect(stdout).not.toMatch(/^ +s\d +craft_item item=stick/m);
    // The live repair, in order: the pickaxe fails on has_item:stick:2, sticks are crafted, the pickaxe is retried and made.
    const failed = stdout.search(/✘ s5 +craft_item +failed .*precond_missing: .*has_item:stick:2/);
    const repaired = stdout.search(/⚒ repair s5 \(missing has_item:stick:2\): craft_item item=stick count=\d+, then retry s5/);
    const sticks = stdout.search(/✔ s5\.r1\.1 +craft_item +succeeded/);
    const retried = stdout.search(/✔ s5 +craft_item +succeeded/);
    expect(failed, stdout).toBeGreaterThan(0);
    expect(repaired).toBeGreaterThan(failed);
    expect(sticks).toBeGreaterThan(repaired);
    expect(retried).toBeGreaterThan(sticks);
    expect(stdout).toContain('router   htn succeeded in need:tools');
    expect(stdout).toMatch(/result\s+✔ wooden_pickaxe ×1 in [\d.]+ s \(\d+ steps, 1 repair, 0 deaths\)/);
    expect(stdout).toContain('wooden_pickaxe ×1');
    // Not a terminal: no spinner escape codes in the log.
    expect(stdout).not.toContain('\x1b[2K');
    // Provenance tells the same story: one record per step attempt, the failure with its missing predicate.
    type Rec = { stepId: string; verb: string; args: Record<string, unknown>; outcome: { status: string; failure?: { code: string; missing?: string[] } } };
    const records = (await readFile(provenance, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Rec);
    expect(records.map((r) => `${r.stepId}:${r.outcome.status}`)).toEqual([
      's1:succeeded',
      's2:succeeded',
      's3:succeeded',
      's4:succeeded',
      's5:failed',
      's5.r1.1:succeeded',
      's5:succeeded',
    ]);
    expect(records[4]!.outcome.failure).toMatchObject({ code: 'precond_missing', missing: ['has_item:stick:2'] });
    expect(records[5]).toMatchObject({ verb: 'craft_item', args: { item: 'stick' } });
    expect(records[6]).toMatchObject({ verb: 'craft_item', args: { item: 'wooden_pickaxe' } });
    // The router recorded the outcome in the planner memory.
    const saved = JSON.parse(await readFile(memory, 'utf8')) as { outcomes: Record<string, Record<string, { successes: number }>> };
    expect(Object.values(saved.outcomes['planner:htn'] ?? {})).toEqual([{ successes: 1, failures: 0 }]);
  });

  it('rejects a bad --port with a clear message and exit 2', async () => {
    const { code, stderr } = await runDemo(['--port', '70000']);
    expect(code).toBe(2);
    expect(stderr).toContain('port');
  });
});

describe('npm run demo on a taken port', () => {
  it('says which port is taken and exits 1, without hanging', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, stderr } = await runDemo(['--port', String(port), '--provenance', join(tmpdir(), 'sinew-demo-taken.jsonl')]);
      expect(code).toBe(1);
      expect(stderr).toContain(`port ${port} on 127.0.0.1 is taken`);
    } finally {
      blocker.close();
    }
  });
});
