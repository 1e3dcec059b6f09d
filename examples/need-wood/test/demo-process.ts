import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The demo as a subprocess, shared by demo.test.ts and demo-keep-alive.test.ts (two files so the two full demo runs
// go side by side, each with its own server).

const exampleDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

interface Probe {
  metrics: string;
  health: unknown;
}

/** Runs the demo as a subprocess and scrapes its telemetry while the plan runs (`onStdout` sees the output so far). */
export function runDemo(args: string[], onStdout?: (stdout: string, stop: () => void) => void): Promise<{ code: number | null; stdout: string; stderr: string; probe?: Probe }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, ['--tsconfig', '../../tsconfig.json', 'src/main.ts', ...args], { cwd: exampleDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let probe: Probe | undefined;
    let probing = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, () => child.kill('SIGTERM'));
      const url = /metrics\s+(http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(stdout)?.[1];
      if (!probing && url && stdout.includes('\n  plan ')) {
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
