import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const exampleDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

interface Probe {
  metrics: string;
  health: unknown;
}

/** Runs the demo as a subprocess and scrapes its telemetry while the plan runs. */
function runDemo(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; probe?: Probe }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, ['--tsconfig', '../../tsconfig.json', 'src/main.ts', ...args], { cwd: exampleDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let probe: Probe | undefined;
    let probing = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /metrics\s+(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(stdout)?.[1];
      if (!probing && url && stdout.includes('plan ')) {
        probing = true;
        void (async () => {
          try {
            const metrics = await (await fetch(`${url}/metrics`)).text();
            const health = (await (await fetch(`${url}/api/cognitive/health`)).json()) as unknown;
            probe = { metrics, health };
          } catch {
            // Left undefined: the assertions on `probe` report it.
          }
        })();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ...(probe ? { probe } : {}) });
    });
  });
}

let scratch: string | undefined;
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('reaches the wooden pickaxe, serves telemetry, writes one provenance record per step, exits 0', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sinew-demo-'));
    const provenance = join(scratch, 'provenance.jsonl');
    const { code, stdout, stderr, probe } = await runDemo(['--port', '0', '--provenance', provenance]);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    // Scraped while the plan ran: the executor's metrics and health are live on 127.0.0.1.
    expect(probe?.metrics).toContain('# TYPE sinew_step_ttfa_seconds histogram');
    expect(probe?.metrics).toContain('# TYPE sinew_steps_total counter');
    expect(probe?.health).toMatchObject({ executor: { status: expect.any(String) } });
    expect(stdout).toMatch(/result\s+✔ wooden_pickaxe ×1/);
    expect(stdout).toContain('wooden_pickaxe ×1');
    for (const verb of ['gather', 'craft_item', 'place_block']) expect(stdout).toContain(verb);
    // Not a terminal: no spinner escape codes in the log.
    expect(stdout).not.toContain('\x1b[2K');
    const records = (await readFile(provenance, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { stepId: string; outcome: { status: string } });
    expect(records.map((r) => r.stepId)).toEqual(['gather-logs', 'craft-planks', 'craft-sticks', 'craft-table', 'place-table', 'craft-pickaxe']);
    expect(records.every((r) => r.outcome.status === 'succeeded')).toBe(true);
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
