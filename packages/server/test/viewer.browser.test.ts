import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Executor } from '@sinew/bt-runtime';
import type { SinewBot } from '@sinew/capabilities';
import { setBlock, waitUntil, type TestServer } from '@sinew/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, type SinewServer } from '../src/index.js';
import { http, post } from './helpers.js';
import { ARTIFACTS, HAS_CHROMIUM, startInspectedBot, type InspectedBot } from './browser.js';

/** The canvas pixels as RGBA bytes, read in the page. */
function pixels(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const canvas = document.getElementById('world') as HTMLCanvasElement;
    return Array.from(canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data);
  });
}

/** Waits until the page has drawn the map `times` more times (each draw is a fresh `/api/viewer/map`). */
async function drawnAgain(page: Page, times: number): Promise<void> {
  const count = async () => Number((await page.locator('#world').getAttribute('data-drawn')) ?? 0);
  const from = await count();
  await expect.poll(count, { timeout: 10_000 }).toBeGreaterThanOrEqual(from + times);
}

describe.skipIf(!HAS_CHROMIUM)('the world view (top-down) in headless Chromium, on a bot digging on the embedded server', () => {
  let inspected: InspectedBot;
  let server: TestServer;
  let bot: SinewBot;
  let executor: Executor<SinewBot>;
  let sinew: SinewServer;
  let browser: Browser;
  const token = createToken();

  beforeAll(async () => {
    inspected = await startInspectedBot({ username: 'viewed', token });
    ({ server, bot, executor, sinew, browser } = inspected);
  });
  afterAll(async () => inspected?.close());

  it('/api/viewer/control: reads without a token, writes only with it, refuses bad input by field', async () => {
    expect((await http(sinew.url, '/api/viewer/control')).json()).toEqual({ mode: 'follow', camera: 'third_person', center: null, target: null, radius: 12 });
    expect((await post(sinew.url, '/api/viewer/control', { radius: 8 })).status).toBe(401);
    const tooBig = await post(sinew.url, '/api/viewer/control', { radius: 99 }, token);
    expect(tooBig.status).toBe(400);
    expect(tooBig.json().error?.issues?.[0]?.path).toEqual(['radius']);
    expect((await post(sinew.url, '/api/viewer/control', { radius: 8, zoom: 2 }, token)).status).toBe(400);
    const fixed = await post(sinew.url, '/api/viewer/control', { mode: 'fixed' }, token);
    expect(fixed.status).toBe(400);
    expect(fixed.text).toContain('center');
    expect((await post(sinew.url, '/api/viewer/control', { radius: 6 }, token)).json()).toMatchObject({ mode: 'follow', radius: 6 });
    const map = (await http(sinew.url, '/api/viewer/map')).json() as unknown as { radius: number; cells: number[]; names: string[] };
    expect(map.radius).toBe(6);
    expect(map.cells).toHaveLength(13 * 13);
    expect(map.names).toContain('grass_block');
  });

  it('draws the terrain, the bot and the target; the picture changes when the bot digs the target block', async () => {
    const block = server.spawn.offset(2, 0, 0).floored();
    await setBlock(server, block, 'oak_log'); // by hand: a dig of 3 s (10 s under the fatigue below)
    // A fixed centre: only the world can move the picture, not the bot stepping while it digs.
    const center = server.spawn.floored();
    expect((await post(sinew.url, '/api/viewer/control', { mode: 'fixed', center: { x: center.x, y: center.y, z: center.z } }, token)).status).toBe(200);
    const page = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${sinew.url}/#token=${token}`);
    await page.locator('#world-x').fill(String(block.x));
    await page.locator('#world-y').fill(String(block.y));
    await page.locator('#world-z').fill(String(block.z));
    await page.locator('#world-radius').fill('8');
    await page.locator('#world-form button').click();
    await expect.poll(() => page.locator('#world-control-result').textContent(), { timeout: 5_000 }).toBe('ok');
    await drawnAgain(page, 2);
    expect(await page.locator('#world-status').textContent()).toContain(`target ${block.x}, ${block.y}, ${block.z}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const before = await page.locator('#world').screenshot({ path: join(ARTIFACTS, 'world-before-dig.png') });
    const beforePixels = await pixels(page);
    const colours = new Set<string>();
    for (let i = 0; i < beforePixels.length; i += 4) colours.add(beforePixels.slice(i, i + 3).join(','));
    expect(colours.size).toBeGreaterThan(4); // terrain, the placed log, shading, the bot, the target outline
    // The middle of the target's cell (radius 8: 17 cells of 23 px; the target is 2 cells east of the centre).
    const middle = (cellX: number, cellZ: number) => 4 * ((cellZ * 23 + 11) * 400 + cellX * 23 + 11);
    const dug = middle(8 + 2, 8);
    const [r0, g0] = beforePixels.slice(dug, dug + 2) as [number, number];
    expect(r0).toBeGreaterThan(g0 + 20); // the log: brown

    // Mining Fatigue I (vanilla: dig speed ×0.3, which mineflayer's dig time reads): the 3 s dig by hand takes 10 s, so
    // the page's 1 s refresh sees the dig on a loaded machine too (at load 15 Chromium once refreshed past a 3 s dig).
    const fatigue = bot.registry.effectsByName.MiningFatigue!.id;
    const player = server.serv!.getPlayer(bot.username) as unknown as { addEffect(id: number, options: { duration: number }): boolean };
    expect(player.addEffect(fatigue, { duration: 60 * 20 })).toBe(true);
    expect(await waitUntil(server, () => bot.entity.effects[fatigue] !== undefined, 100)).toBe(true);
    const digging = executor.run({ planId: 'dig-it', intentId: 'view', steps: [{ stepId: 'dig', type: 'dig_block', args: { position: { x: block.x, y: block.y, z: block.z } } }] });
    // While the step digs, the view reads the block being dug from the body.
    await expect.poll(() => page.locator('#world-status').textContent(), { timeout: 10_000 }).toContain(`digging ${block.x}, ${block.y}, ${block.z}`);
    await page.locator('#world').screenshot({ path: join(ARTIFACTS, 'world-digging.png') });
    const dig = await digging;
    expect(dig.status).toBe('completed');
    const step = dig.steps[0]!;
    expect(step.endedAt - step.startedAt).toBeGreaterThan(9_000); // the fatigue held: the dig was long
    await drawnAgain(page, 2);
    const after = await page.locator('#world').screenshot({ path: join(ARTIFACTS, 'world-after-dig.png') });
    const afterPixels = await pixels(page);
    let changed = 0;
    for (let i = 0; i < afterPixels.length; i += 4) if (afterPixels[i] !== beforePixels[i] || afterPixels[i + 1] !== beforePixels[i + 1] || afterPixels[i + 2] !== beforePixels[i + 2]) changed += 1;
    expect(changed).toBeGreaterThan(100); // at least the dug cell (a radius of 8 draws 23 px cells)
    const [r1, g1] = afterPixels.slice(dug, dug + 2) as [number, number];
    expect(g1).toBeGreaterThan(r1); // the grass below it: green
    expect(Buffer.compare(before, after)).not.toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
