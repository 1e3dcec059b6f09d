import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryProvenance, type Executor, type PlanOutcome } from '@sinew/bt-runtime';
import { GATHER_TREE, type SinewBot } from '@sinew/capabilities';
import { placeTree } from '@sinew/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, type SinewServer } from '../src/index.js';
import { ARTIFACTS, HAS_CHROMIUM, startInspectedBot, type InspectedBot } from './browser.js';

const SCREENSHOT = join(ARTIFACTS, 'inspector.png');

describe.skipIf(!HAS_CHROMIUM)('the inspector page in headless Chromium, on a bot gathering on the embedded server', () => {
  let inspected: InspectedBot;
  let executor: Executor<SinewBot>;
  let sinew: SinewServer;
  let browser: Browser;
  const token = createToken();

  beforeAll(async () => {
    const provenance = createMemoryProvenance({ capacity: 50 });
    const prepare = (server: InspectedBot['server']) => placeTree(server, server.spawn.offset(6, 0, 3).floored(), { kind: 'oak', height: 5 }).then(() => undefined);
    inspected = await startInspectedBot({ username: 'inspected', token, prepare, provenance, serve: { provenance, trees: { gather: GATHER_TREE } } });
    ({ executor, sinew, browser } = inspected);
  });
  afterAll(async () => inspected?.close());

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
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'inspector-gather.png'), fullPage: true });

    // Usable under a flood, measured by the work the page does, not by the wall clock (which a loaded machine
    // stretches): 500 events at once are coalesced into a few renders, and the event list stays bounded.
    await page.evaluate(() => {
      const counter = window as unknown as { eventListRenders: number };
      counter.eventListRenders = 0;
      new MutationObserver((records) => (counter.eventListRenders += records.length)).observe(document.querySelector('#events')!, { childList: true });
    });
    const FLOOD = 500;
    for (let i = 0; i < FLOOD; i += 1) sinew.planGenerated({ intentId: `flood-${i}`, planner: 'flood', plan: { steps: [] } });
    await expect.poll(() => page.locator('#events li', { hasText: `flood-${FLOOD - 1}` }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator('#events li').count()).toBe(100);
    const renders = await page.evaluate(() => (window as unknown as { eventListRenders: number }).eventListRenders);
    expect(renders).toBeGreaterThan(0);
    expect(renders).toBeLessThan(FLOOD / 10);

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
