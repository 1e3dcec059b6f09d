import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createExecutor, type Executor } from '@sinew/bt-runtime';
import { instrumentBot, type SinewBot } from '@sinew/capabilities';
import type { CapabilityRegistry, StepOutcome } from '@sinew/executor-contracts';
import { connectBot, setBlock, startServer, type TestServer } from '@sinew/testkit';
import type { Vec3 } from 'vec3';
import { Project } from 'ts-morph';
import { expect } from 'vitest';
import { wrapRunners, type WrapRunnersOptions, type WrapResult } from '../src/index.js';
import { compilerOptions, repoRoot, typecheck } from './helpers.js';

/** Generated capabilities of fixture modules, running through the real executor on a real bot and server. */
export interface Live {
  readonly dir: string;
  readonly result: WrapResult;
  /** With `typecheckEntry`: the type errors of that copy and the generated capability files (empty when they compile). */
  readonly typeErrors: readonly string[] | undefined;
  readonly registry: CapabilityRegistry;
  readonly server: TestServer;
  readonly bot: SinewBot;
  readonly executor: Executor<SinewBot>;
  /** Runs one step of `type` with `args` as its own plan. */
  step(type: string, args: Record<string, unknown>): Promise<StepOutcome>;
  /** Runs a step that must be refused before dispatch: `invalid_args`, the reason naming `key` (`→ at key`). */
  refused(type: string, args: Record<string, unknown>, key: string): Promise<void>;
  /** Runs a step that must succeed. */
  succeeds(type: string, args: Record<string, unknown>): Promise<void>;
  /** The next chat message the bot hears. */
  nextChat(): Promise<string>;
  /** Sets the block at an offset from spawn and returns its position. */
  placeNear(dx: number, dy: number, dz: number, name: string): Promise<Vec3>;
  close(): Promise<void>;
}

/**
 * Copies `sources` (absolute fixture paths) to a temp dir beside the repo's node_modules, wraps them as the CLI
 * does (real file system), writes the output, imports the generated registry and connects a bot to a fresh server.
 * `typecheckEntry` (a source's file name) is type-checked with the generated files BEFORE the server starts: the
 * check is seconds of synchronous work, and run beside a connected bot it blocked the process past the server's
 * keep-alive at load ~15 (the bot was kicked, and every later test of the file failed).
 */
export async function live(sources: readonly string[], options: WrapRunnersOptions = {}, username = 'wrapped', typecheckEntry?: string): Promise<Live> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-live-'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const copies = sources.map((source) => {
    const copy = join(dir, basename(source));
    copyFileSync(source, copy);
    return copy;
  });
  const project = new Project({ compilerOptions: { ...compilerOptions, allowJs: true }, skipAddingFilesFromTsConfig: true });
  for (const copy of copies) project.addSourceFileAtPath(copy);
  const result = wrapRunners(project, { files: copies, ...options });
  for (const change of result.changes) writeFileSync(change.path, change.after);
  const generated = result.changes.filter((change) => change.kind === 'capabilities');
  const typeErrors = typecheckEntry === undefined ? undefined : typecheck([join(dir, typecheckEntry)], generated);
  const { registry } = (await import(pathToFileURL(result.registryFile).href)) as { registry: CapabilityRegistry };
  const server = await startServer();
  const bot = instrumentBot(await connectBot(server, { username }));
  const executor = createExecutor({ registry, body: bot, policy: { maxLocalRetries: 0 } });
  let plans = 0;
  const step = async (type: string, args: Record<string, unknown>): Promise<StepOutcome> => {
    plans += 1;
    const outcome = await executor.run({ planId: `live${plans}`, intentId: 'codemod', steps: [{ stepId: 's1', type, args }] });
    return outcome.steps.at(-1)!;
  };
  return {
    dir,
    result,
    typeErrors,
    registry,
    server,
    bot,
    executor,
    step,
    async refused(type, args, key) {
      const outcome = await step(type, args);
      expect(outcome.failure?.code, JSON.stringify(outcome)).toBe('invalid_args');
      expect(outcome.failure?.reason).toMatch(new RegExp(`→ at ${key}\\b`));
    },
    async succeeds(type, args) {
      const outcome = await step(type, args);
      expect(outcome.status, JSON.stringify(outcome.failure)).toBe('succeeded');
    },
    async placeNear(dx, dy, dz, name) {
      const target = server.spawn.offset(dx, dy, dz).floored();
      await setBlock(server, target, name);
      return target;
    },
    nextChat() {
      return new Promise<string>((resolve) => bot.once('chat', (_user, message) => resolve(message)));
    },
    async close() {
      await executor.close();
      bot.quit();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
