import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSinew, type SinewServer } from '../src/index.js';
import { deltas, loopRig } from '../../planners/test/support/cognition.js';
import { HAS_CHROMIUM, launchInspectorBrowser } from './browser.js';
import { post, TOKEN } from './helpers.js';

/** The inner monologue panel, driven by a real cognition loop through serveSinew's stream into headless Chromium. */
describe.skipIf(!HAS_CHROMIUM)("the inspector's inner monologue in headless Chromium", () => {
  let browser: Browser;
  let rig: ReturnType<typeof loopRig>;
  let server: SinewServer;

  beforeAll(async () => {
    browser = await launchInspectorBrowser();
    rig = loopRig();
    rig.body.threats = [{ entity: 'zombie', distance: 3 }];
    server = await serveSinew({ executor: rig.executor, cognition: rig.cognition, port: 0, token: TOKEN });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rig?.executor.close();
  });

  it('prints each decision of the loop as a line, newest first, and a refusal with its stage and rule', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/#token=${TOKEN}`);
    await page.locator('#connection[data-state="live"]').waitFor({ timeout: 10_000 });
    expect(await page.locator('#monologue li').count()).toBe(0);

    await rig.cognition.ingest(deltas(1, 10, [{ type: 'new_threat', trackId: 1, cls: 'zombie', hostile: true, bucket: 0 }]));
    await rig.cognition.idle();
    const lines = page.locator('#monologue li');
    await expect.poll(() => lines.count(), { timeout: 10_000 }).toBe(5);
    // Newest first: the outcome's own gate (closed by the cooldown) on top, the threat's open gate at the bottom.
    expect(await lines.evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))).toEqual(['cognition.gate', 'cognition.outcome', 'cognition.plan', 'cognition.route', 'cognition.gate']);
    const texts = await lines.allTextContents();
    expect(texts[4]).toMatch(/^t10 [0-9a-f]{8} gate open, M 0\.70: /);
    expect(texts[3]).toMatch(/"[^"]+" \(urgency [^)]+\) → needs: /);
    expect(texts[2]).toMatch(/needs planned \S+: flee$/);
    expect(texts[1]).toMatch(/completed: plan completed$/);
    expect(texts[0]).toMatch(/gate closed, M 0\.13 \(blocked: below_threshold, cooldown\)/);

    // A request the input filter refuses: its line names the stage and the rule, and nothing is planned.
    const harmful = await post(server.url, '/api/cognitive/signals', { goal: 'jump into the lava' }, TOKEN);
    expect(harmful.status).toBe(422);
    await expect.poll(() => lines.count(), { timeout: 10_000 }).toBe(6);
    expect(await lines.first().getAttribute('data-type')).toBe('cognition.refused');
    expect(await lines.first().textContent()).toMatch(/refused at input_filter by self_harm\.lava: /);
    expect(rig.model.prompts).toHaveLength(0);
    expect(pageErrors).toEqual([]);
  });
});
