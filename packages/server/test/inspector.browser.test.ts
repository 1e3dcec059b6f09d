import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExecutor, createMemoryProvenance, type Executor, type PlanOutcome } from '@sinew/bt-runtime';
import { createStandardRegistry, GATHER_TREE, instrumentBot, type SinewBot } from '@sinew/capabilities';
import { connectBot, placeTree, startServer, type TestServer } from '@sinew/testkit';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, serveSinew, type SinewServer } from '../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT = join(here, 'artifacts', 'inspector.png');

describe.skipIf(!existsSync(CHROMIUM))('the inspector page in headless Chromium, on a bot gathering on the embedded server', () => {
  let server: TestServer;
  let bot: SinewBot;
  let executor: Executor<SinewBot>;
  let sinew: SinewServer;
  let browser: Browser;
  const token = createToken();

  beforeAll(async () => {
    execFileSync(process.execPath, [join(here, '..', 'scripts', 'build-inspector.mjs')]);
    server = await startServer();
    await placeTree(server, server.spawn.offset(6, 0, 3).floored(), { kind: 'oak', height: 5 });
    bot = instrumentBot(await connectBot(server, { username: 'inspected' }));
    const provenance = createMemoryProvenance({ capacity: 50 });
    executor = createExecutor({ registry: createStandardRegistry(), body: bot, provenance });
    sinew = await serveSinew({ executor, bot, provenance, trees: { gather: GATHER_TREE }, port: 0, token });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  });
  afterAll(async () => {
    await browser?.close();
    await sinew?.close();
    await executor?.close();
    bot?.quit();
    await server?.stop();
  });

  it('lights the active node of gather, executes a plan from the form and shows its outcome on the timeline', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${sinew.url}/#token=${token}`);
    await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
    expect(page.url()).not.toContain(token); // the token leaves the address bar

    const gathering: Promise<PlanOutcome> = executor.run({ planId: 'gather-logs', intentId: 'wood', steps: [{ stepId: 'g1', type: 'gather', args: { block: 'oak_log', count: 2 } }] });
    const lit = page.locator('#tree .bt-node[data-state="running"][data-node-path*="action:"]').first();
    await lit.waitFor({ timeout: 30_000 });
    expect(await page.locator('#tree-title').textContent()).toBe('gather');
    expect(await lit.getAttribute('data-node-path')).toMatch(/^root\/selector\[0\]\/retry\[1\]\//);
    mkdirSync(join(here, 'artifacts'), { recursive: true });
    await page.screenshot({ path: join(here, 'artifacts', 'inspector-gather.png'), fullPage: true });

    // Usable at 20 events/s: with a 20/s flood on top of the gather's own events, the page answers promptly.
    let flooded = 0;
    const flood = setInterval(() => sinew.planGenerated({ intentId: `flood-${flooded++}`, planner: 'flood', plan: { steps: [] } }), 50);
    const answers: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const asked = Date.now();
      await page.evaluate(() => document.querySelectorAll('#events li').length);
      answers.push(Date.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    clearInterval(flood);
    await expect.poll(() => page.locator('#events li', { hasText: `flood-${flooded - 1}` }).count(), { timeout: 5_000 }).toBe(1);
    expect(Math.max(...answers), answers.join(',')).toBeLessThan(500);

    const plan = { planId: 'from-form', intentId: 'inspector', steps: [{ stepId: 'say', type: 'chat', args: { message: 'hello from the inspector' } }] };
    await page.locator('#plan-json').fill(JSON.stringify(plan));
    await page.locator('#execute-form button').click();
    await expect.poll(() => page.locator('#execute-result').textContent(), { timeout: 5_000 }).toContain('202 accepted: plan from-form');

    expect((await gathering).status).toBe('completed');
    const formPlan = page.locator('tr.plan-row[data-plan-id="from-form"] .plan-status');
    await expect.poll(() => formPlan.textContent(), { timeout: 30_000 }).toBe('completed');
    await expect.poll(() => page.locator('tr.plan-row[data-plan-id="gather-logs"] .plan-status').textContent()).toBe('completed');
    await expect.poll(() => page.locator('#sla tr[data-capability="gather"]').count(), { timeout: 5_000 }).toBe(1);
    expect(await page.locator('#tree-title').textContent()).toBe('chat (not a behavior tree)');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
