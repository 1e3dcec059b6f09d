import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, createJsonlJournal, createJsonlProvenance, type Executor, type PlanOutcome } from '@sinew/bt-runtime';
import { createStandardRegistry, GATHER_TREE, observeWorld, sinew, type SinewBot } from '@sinew/capabilities';
import { attachBelief, type BeliefAdapter } from '@sinew/belief/mineflayer';
import { createPlannerRepairHook } from '@sinew/planners';
import { createMinecraftHtn, focusAround } from '@sinew/planners/minecraft';
import { connectBot, give, placeTree, setBlock, spawnMob, startServer, type TestServer } from '@sinew/testkit';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecording } from '../src/inspector/page/recording.js';
import { serveRecording, type ReplayServer } from '../src/replay/serve.js';
import { serveSinew } from '../src/index.js';
import { ARTIFACTS, HAS_CHROMIUM, launchInspectorBrowser } from './browser.js';

/**
 * A real run, recorded three ways: gather a log (a behavior tree), then craft a wooden pickaxe with planks
 * but no sticks — the step fails `precond_missing`, the HTN's repair crafts sticks, the step succeeds.
 * A cow grazes nearby: the belief layer tracks it, and the record file carries the tracks.
 */
async function recordFailingRun(dir: string): Promise<{ outcome: PlanOutcome; files: { events: string; provenance: string; journal: string } }> {
  const files = { events: join(dir, 'run.events.jsonl'), provenance: join(dir, 'run.provenance.jsonl'), journal: join(dir, 'run.journal.jsonl') };
  const server: TestServer = await startServer();
  let bot: SinewBot | undefined;
  let executor: Executor<SinewBot> | undefined;
  let belief: BeliefAdapter | undefined;
  try {
    await placeTree(server, server.spawn.offset(5, 0, 2).floored(), { kind: 'oak', height: 4 });
    await setBlock(server, server.spawn.offset(-2, 0, 1).floored(), 'crafting_table');
    const body = await connectBot(server, { username: 'recorded' });
    body.loadPlugin(sinew);
    bot = body as SinewBot;
    await give(body, 'oak_planks', 6);
    await spawnMob(server, 'cow', server.spawn.offset(-4, 0, -4));
    belief = attachBelief(body);
    belief.start();
    const observe = () => observeWorld(body, { positions: focusAround(body.entity.position, 6) });
    const registry = createStandardRegistry();
    executor = createExecutor({
      registry,
      body: bot,
      provenance: createJsonlProvenance({ path: files.provenance }),
      journal: createJsonlJournal(files.journal),
      repair: createPlannerRepairHook(createMinecraftHtn({ registry }), observe),
    });
    const control = await serveSinew({ executor, bot, belief: belief.bus, trees: { gather: GATHER_TREE }, port: 0, record: files.events });
    const outcome = await executor.run({
      planId: 'replayed',
      intentId: 'pickaxe',
      steps: [
        { stepId: 'log', type: 'gather', args: { block: 'oak_log', count: 1 } },
        { stepId: 'pick', type: 'craft_item', args: { item: 'wooden_pickaxe', count: 1 } },
      ],
    });
    await control.close();
    return { outcome, files };
  } finally {
    belief?.stop();
    await executor?.close();
    bot?.quit();
    await server.stop();
  }
}

/**
 * Waits until the player has played every event and the views have drawn the last of them: the views coalesce
 * renders into the next animation frame, so the position can read "at the end" a frame before the step table does
 * (a loaded machine showed the step's earlier `failed`). A frame requested now runs after the render queued before it.
 */
async function playedToEnd(page: Page): Promise<void> {
  const position = page.locator('#replay-position');
  await expect.poll(async () => (await position.getAttribute('data-position')) === (await position.getAttribute('data-total')) && (await position.getAttribute('data-playing')) === 'false', { timeout: 30_000 }).toBe(true);
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

describe.skipIf(!HAS_CHROMIUM)('replay of a recorded run in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-replay-'));
  let recorded: Awaited<ReturnType<typeof recordFailingRun>>;
  let replay: ReplayServer;
  let browser: Browser;

  beforeAll(async () => {
    // The page is built first: the replay server reads it once, when it starts.
    browser = await launchInspectorBrowser();
    recorded = await recordFailingRun(dir);
    replay = await serveRecording({ file: recorded.files.events });
  });
  afterAll(async () => {
    await browser?.close();
    await replay?.close();
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  });

  it('recorded a run whose pickaxe step failed precond_missing, was repaired and succeeded', () => {
    expect(recorded.outcome.status).toBe('completed');
    expect(recorded.outcome.repairs).toBeGreaterThanOrEqual(1);
    const events = parseRecording(readFileSync(recorded.files.events, 'utf8'));
    expect(events.kind).toBe('events');
    const failed = events.events.find((e) => e.type === 'step.failed' && e.data.stepId === 'pick');
    expect((failed?.data.failure as { code?: string } | undefined)?.code).toBe('precond_missing');
    expect(events.events.some((e) => e.type === 'step.succeeded' && e.data.stepId === 'pick')).toBe(true);
    const tracked = events.events.filter((e) => e.type === 'beliefEvent').flatMap((e) => (e.data.tracks as { cls: string }[]).map((t) => t.cls));
    expect(tracked).toContain('cow');
  });

  it('plays the record file: steps light the gather tree node by node, 10× plays the rest, the failure record shows', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(replay.url);
    await expect.poll(() => page.locator('#replay-status').getAttribute('data-state'), { timeout: 10_000 }).toBe('loaded');
    expect(await page.locator('#connection').textContent()).toBe('replay');
    expect(await page.locator('#replay-position').getAttribute('data-position')).toBe('0');

    // Stepped: one event per click until an action node of gather is lit; the nodes light in the recorded order.
    const lit: string[] = [];
    for (let i = 0; i < 400 && lit.length < 2; i += 1) {
      await page.locator('#replay-step').click();
      // Read in one go: the page may re-render between a count and a read (a locator would then wait for a node that is gone).
      const path = await page.evaluate(() => document.querySelector('#tree .bt-node[data-state="running"][data-node-path*="action:"]')?.getAttribute('data-node-path') ?? null);
      if (path && lit.at(-1) !== path) lit.push(path);
    }
    expect(await page.locator('#tree-title').textContent()).toBe('gather');
    expect(lit.length).toBe(2);
    expect(lit[0]).toMatch(/^root\/selector\[0\]\/retry\[1\]\//);
    const stepped = Number(await page.locator('#replay-position').getAttribute('data-position'));
    expect(stepped).toBeLessThan(Number(await page.locator('#replay-position').getAttribute('data-total')));

    await page.locator('#replay-play-10').click();
    await playedToEnd(page);
    expect(await page.locator('tr.step-row[data-step-id="pick"] .step-status').textContent()).toBe('succeeded');
    expect(await page.locator('tr.plan-row[data-plan-id="replayed"] .plan-status').textContent()).toBe('completed');
    const failure = page.locator('#failures li[data-step-id="pick"][data-code="precond_missing"]');
    // The real run: the guard first misses sticks (and the table in reach), and after the sticks, planks.
    expect(await failure.count()).toBeGreaterThanOrEqual(1);
    expect((await failure.locator('.failure-record').allTextContents()).join('\n')).toContain('has_item:stick');
    // The belief tracks the record carried, and the ladder the pickaxe step climbed: each failure, then the
    // planner's repair (the steps it inserted), then the re-run that succeeded.
    expect(await page.locator('#belief').textContent()).toContain('cow');
    const ladder = page.locator('#ladders li.ladder[data-step-id="pick"]');
    const rungs = await ladder.locator('li.rung').evaluateAll((items) => items.map((item) => item.getAttribute('data-rung')));
    expect(rungs.slice(0, 2)).toEqual(['failed', 'repair']);
    expect(rungs.slice(-2)).toEqual(['rerun', 'succeeded']);
    rungs.forEach((rung, i) => rung === 'failed' && expect(rungs[i + 1]).toBe('repair'));
    expect(await ladder.locator('li.rung[data-rung="failed"]').first().textContent()).toContain('precond_missing');
    // The repair's steps: a walk back to the table the run placed when it is out of reach, then the missing sticks crafted.
    expect(await ladder.locator('li.rung[data-rung="repair"]').first().textContent()).toMatch(/the planner inserted (pick\.r1\.1 \(navigate\), )?pick\.r1\.\d \(craft_item\)/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'replay.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('keeps the file the user picked when the served recording arrives after it: only the latest load opens', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    // Counts the served recording's bodies the page has read: the page opens it (or drops it) in the same run of
    // microtasks, so once a later evaluate reads the count, the page has decided.
    await page.addInitScript(() => {
      const read = Response.prototype.text;
      Response.prototype.text = function (this: Response) {
        return read.call(this).then((body) => {
          const seen = window as unknown as { servedReads?: number };
          if (new URL(this.url).pathname === '/api/recording') seen.servedReads = (seen.servedReads ?? 0) + 1;
          return body;
        });
      };
    });
    // The served recording's fetch, which the page starts as it opens, is held until the user has picked a file.
    let hold: (route: Route) => void = () => undefined;
    const held = new Promise<Route>((resolve) => (hold = resolve));
    await page.route('**/api/recording', (route) => hold(route));
    await page.goto(replay.url);
    const served = await held;
    const status = page.locator('#replay-status');
    await page.locator('#replay-file').setInputFiles(recorded.files.provenance);
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('run.provenance.jsonl: provenance,');
    await served.continue();
    await expect.poll(() => page.evaluate(() => (window as unknown as { servedReads?: number }).servedReads ?? 0), { timeout: 10_000 }).toBe(1);
    expect(await status.textContent()).toMatch(/^run\.provenance\.jsonl: provenance, \d+ events/);
    const picked = parseRecording(readFileSync(recorded.files.provenance, 'utf8'));
    expect(await page.locator('#replay-position').getAttribute('data-total')).toBe(String(picked.events.length));
    expect(picked.events.length).not.toBe(parseRecording(readFileSync(recorded.files.events, 'utf8')).events.length);
  });

  it('opens the provenance JSONL and the plan journal picked in the page and plays them to the same ending', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(replay.url);
    for (const [file, kind] of [
      [recorded.files.provenance, 'provenance'],
      [recorded.files.journal, 'journal'],
    ] as const) {
      await page.locator('#replay-file').setInputFiles(file);
      await expect.poll(() => page.locator('#replay-status').textContent(), { timeout: 10_000 }).toContain(`: ${kind},`);
      await page.locator('#replay-play-10').click();
      await playedToEnd(page);
      expect(await page.locator('tr.step-row[data-step-id="pick"] .step-status').textContent()).toBe('succeeded');
      expect(await page.locator('#failures li[data-step-id="pick"][data-code="precond_missing"]').count()).toBeGreaterThanOrEqual(1);
    }
  });
});
