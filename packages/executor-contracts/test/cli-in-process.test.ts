import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VerbReportSchema } from '@sinew/executor-contracts';
import { F, inProcess, TIMEOUT } from './verbs-cli.js';

// The `sinew-verbs` CLI in-process: usage errors, hangs and scans (cli.test.ts runs it as a process).

const tmp = mkdtempSync(join(tmpdir(), 'sinew-verbs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent('sinew-verbs bad usage exits 2 with a clear message', () => {
  const clean = `${F}/clean/registry.ts`;
  it.each([
    [[], 'missing command (manifest or check)'],
    [['deploy'], 'unknown command "deploy"'],
    [['check', '--registry', clean, '--planner', `${F}/clean/verbs.json`, '--frobnicate'], "Unknown option '--frobnicate'"],
    [['check', '--registry', clean, '--planner', `${F}/clean/verbs.json`, '--format', 'xml'], 'expected one of "text"|"json"|"github"\n  → at --format'],
    [['check', '--planner', `${F}/clean/verbs.json`], '→ at --registry'],
    [['check', '--registry', clean], 'give at least one --planner or --scan'],
    [['manifest', '--registry', `${F}/nope.ts`], `${F}/nope.ts does not exist`],
    [['manifest', '--registry', `${F}/clean/verbs.json`], 'is not a registry manifest'],
    [['manifest', '--registry', `${F}/bad/duplicate-registry.ts`], 'cannot load packages/executor-contracts/test/fixtures/bad/duplicate-registry.ts: chat@1.0.0 is already registered'],
    [['manifest', '--registry', `${F}/clean/planner.ts`], 'exports no CapabilityRegistry (exports: SOCIAL_VERBS, gatherPlanner, unrelated)'],
    [['manifest', '--registry', clean, '--export', 'notARegistry'], 'export "notARegistry" is not a CapabilityRegistry'],
    [['check', '--registry', clean, '--planner', `${F}/bad/verbs-wrong-shape.json`], 'must be a JSON array of verb strings:\n✖ Invalid input: expected string, received number\n  → at [1]'],
    [['check', '--registry', clean, '--planner', `${F}/bad/verbs-not-json.json`], 'is not valid JSON'],
    [['check', '--registry', `${F}/bad/manifest-wrong-version.json`, '--planner', `${F}/clean/verbs.json`], '→ at manifestVersion'],
    [['check', '--registry', clean, '--planner', `${F}/bad/no-planner.ts`], 'exports no Planner (an object with verbs())'],
    [['check', '--registry', clean, '--scan', `${F}/clean/nothing/**/*.ts`], 'matched no files'],
    [['check', '--registry', clean, '--planner', `${F}/clean/README.md`], 'no such file'],
  ])('sinew-verbs %j', async (args, message) => {
    const run = await inProcess(...args);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toMatch(/^sinew-verbs: /);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
  }, TIMEOUT);

});

describe.concurrent('sinew-verbs cannot pass green on a hang', () => {
  it("a planner whose verbs() never answers exits 2 naming the export", async () => {
    const run = await inProcess('check', '--registry', `${F}/clean/registry.ts`, '--planner', `${F}/bad/hanging-planner.ts`, '--timeout', '200');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('hanging-planner.ts#stalled: verbs() did not settle within 200 ms');
  }, TIMEOUT);

  it('refuses a FIFO as a planner or a registry instead of blocking on it', async () => {
    const fifo = join(tmp, 'verbs.json');
    spawnSync('mkfifo', [fifo]);
    const planner = await inProcess('check', '--registry', `${F}/clean/registry.ts`, '--planner', fifo);
    expect([planner.code, planner.stderr]).toEqual([2, expect.stringContaining(`${fifo} is not a regular file`)]);
    const fifoModule = join(tmp, 'registry-fifo.ts');
    spawnSync('mkfifo', [fifoModule]);
    const registry = await inProcess('manifest', '--registry', fifoModule);
    expect([registry.code, registry.stderr]).toEqual([2, expect.stringContaining(`${fifoModule} is not a regular file`)]);
  });

  it('refuses a --timeout that is not a positive whole number of milliseconds', async () => {
    const run = await inProcess('check', '--registry', `${F}/clean/registry.ts`, '--planner', `${F}/clean/verbs.json`, '--timeout', '1.5');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('→ at --timeout');
  });
});

describe('sinew-verbs --scan at scale and through symlinks', () => {
  it('scans 150,000 type literals without overflowing the stack', async () => {
    const dir = join(tmp, 'huge');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plans.ts'), `export const steps = [\n${"  { type: 'dig_block' },\n".repeat(150_000)}];\n`);
    const run = await inProcess('check', '--registry', `${F}/clean/registry.ts`, '--scan', `${dir}/*.ts`, '--format', 'json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, TIMEOUT);

  it('follows a symlinked file and a symlinked folder once, and ends at a link loop', async () => {
    const root = join(tmp, 'links');
    const shared = join(tmp, 'shared-plans');
    mkdirSync(join(root, 'plans'), { recursive: true });
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, 'fly.ts'), "export const step = { type: 'fly_away' };\n");
    writeFileSync(join(tmp, 'teleport.ts'), "export const step = { type: 'teleport' };\n");
    symlinkSync(shared, join(root, 'plans', 'shared'));
    symlinkSync(join(tmp, 'teleport.ts'), join(root, 'plans', 'teleport.ts'));
    symlinkSync(root, join(root, 'plans', 'loop')); // plans/loop/plans/loop/… must end
    symlinkSync(join(tmp, 'missing.ts'), join(root, 'plans', 'dangling.ts'));
    const run = await inProcess('check', '--registry', `${F}/clean/registry.ts`, '--scan', `${root}/**/*.ts`, '--format', 'json');
    expect(run.code).toBe(1);
    const report = VerbReportSchema.parse(JSON.parse(run.stdout));
    expect(report.plannerVerbs).toEqual(['fly_away', 'teleport']);
  }, TIMEOUT);
});

