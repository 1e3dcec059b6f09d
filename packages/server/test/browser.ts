import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExecutor, type Executor, type MemoryProvenance } from '@sinew/bt-runtime';
import { createStandardRegistry, instrumentBot, type SinewBot } from '@sinew/capabilities';
import { connectBot, startServer, type TestServer } from '@sinew/testkit';
import { chromium, type Browser } from 'playwright-core';
import { serveSinew, type SinewServer, type SinewServerOptions } from '../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Debian's Chromium, driven by playwright-core (never a browser download); the browser suites skip without it. */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Where the browser suites write their screenshots (git-ignored). */
export const ARTIFACTS = join(here, 'artifacts');

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** WebGL without a GPU: Chromium's software rasterizer (SwiftShader) behind ANGLE. */
const WEBGL_FLAGS = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/** Builds the inspector page from source (what the server serves), then starts headless Chromium (`webgl`: with SwiftShader). */
export async function launchInspectorBrowser(options: { webgl?: boolean } = {}): Promise<Browser> {
  execFileSync(process.execPath, [join(here, '..', 'scripts', 'build-inspector.mjs')]);
  const args = options.webgl ? [...FLAGS.filter((flag) => flag !== '--disable-gpu'), ...WEBGL_FLAGS] : FLAGS;
  return chromium.launch({ executablePath: CHROMIUM, args, headless: true });
}

/** A bot on the embedded server, its executor and control plane, and a browser on the page; `close()` stops all. */
export interface InspectedBot {
  readonly server: TestServer;
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  readonly sinew: SinewServer;
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Starts an {@link InspectedBot}: `prepare` shapes the world before the bot joins, `serve` adds serveSinew options. */
export async function startInspectedBot(input: { username: string; token: string; prepare?: (server: TestServer) => Promise<void>; provenance?: MemoryProvenance; serve?: Partial<SinewServerOptions<SinewBot>>; webgl?: boolean }): Promise<InspectedBot> {
  // The page is built first: the server reads it once, when it starts.
  const browser = await launchInspectorBrowser({ webgl: input.webgl ?? false });
  const server = await startServer();
  await input.prepare?.(server);
  const bot = instrumentBot(await connectBot(server, { username: input.username }));
  const executor = createExecutor({ registry: createStandardRegistry(), body: bot, ...(input.provenance ? { provenance: input.provenance } : {}) });
  const sinew = await serveSinew({ executor, bot, port: 0, token: input.token, ...input.serve });
  return {
    server,
    bot,
    executor,
    sinew,
    browser,
    close: async () => {
      await browser.close();
      await sinew.close();
      await executor.close();
      bot.quit();
      await server.stop();
    },
  };
}
