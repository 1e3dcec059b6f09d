import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityRegistry, defineCapability } from '../src/index.js';
import { runVerbsBin, type BinProcess, type BinStream } from '../src/gate/bin.js';

// The `sinew-verbs` bin's process wiring in process: `src/cli.ts` passes `process` to runVerbsBin, these tests a small
// fake of it (argv, two streams whose flush the test releases, the beforeExit listeners, the exits asked for); the CLI
// behind it is the real one on real files. cli.test.ts runs the bin itself as a child process.

/** A stream that keeps what was written and holds each write's flush callback until the test releases it. */
class HeldStream implements BinStream {
  text = '';
  private readonly held: (() => void)[] = [];
  constructor(private readonly refuse?: string) {}

  write(text: string, flushed?: () => void): boolean {
    if (this.refuse !== undefined && text !== '') throw new Error(this.refuse);
    this.text += text;
    if (flushed) this.held.push(flushed);
    return true;
  }

  flush(): void {
    for (const flushed of this.held.splice(0)) flushed();
  }
}

class FakeProcess implements BinProcess {
  readonly stdout: HeldStream;
  readonly stderr = new HeldStream();
  exitCode?: number | string | undefined;
  readonly exits: number[] = [];
  private readonly listeners: { event: string; listener: () => void }[] = [];

  constructor(readonly argv: readonly string[], options: { stdoutThrows?: string } = {}) {
    this.stdout = new HeldStream(options.stdoutThrows);
  }

  once(event: string, listener: () => void): this {
    this.listeners.push({ event, listener });
    return this;
  }

  off(event: string, listener: () => void): this {
    const at = this.listeners.findIndex((entry) => entry.event === event && entry.listener === listener);
    if (at >= 0) this.listeners.splice(at, 1);
    return this;
  }

  listening(event: string): number {
    return this.listeners.filter((entry) => entry.event === event).length;
  }

  /** Node's `beforeExit`: the loop emptied; a `once` listener runs and is removed. */
  emitBeforeExit(): void {
    for (const { listener } of this.listeners.splice(0).filter((entry) => entry.event === 'beforeExit')) listener();
  }

  exit(code: number): void {
    this.exits.push(code);
  }
}

const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A folder with a registry manifest of `dig_block` and a verbs list holding `verbs`; the bin's argv for `check`. */
function checkArgv(verbs: string[]): string[] {
  const root = mkdtempSync(join(tmpdir(), 'sinew-bin-'));
  made.push(root);
  const capability = defineCapability({ name: 'dig_block', version: '1.0.0', description: 'dig', inputSchema: z.object({}), run: async () => {}, acceptance: () => accepted });
  writeFileSync(join(root, 'manifest.json'), JSON.stringify(new CapabilityRegistry().register(capability).manifest()));
  writeFileSync(join(root, 'verbs.json'), JSON.stringify(verbs));
  return ['node', 'sinew-verbs', 'check', '--registry', join(root, 'manifest.json'), '--planner', join(root, 'verbs.json')];
}

describe('the sinew-verbs bin', () => {
  it("exits with the CLI's code only once stdout and stderr have flushed, its never-settled guard removed at the answer", async () => {
    const proc = new FakeProcess(checkArgv(['dig_blok']));
    const answered = runVerbsBin(proc);
    expect(proc.listening('beforeExit')).toBe(1);
    await answered;
    expect(proc.listening('beforeExit')).toBe(0);
    expect(proc.exitCode).toBe(1);
    expect(proc.stdout.text).toMatch(/^ {2}error {3}\[unknown_verb\] planner verb "dig_blok" has no capability[^]*\nverb gate FAILED: 1 planner verb\(s\), 1 registered verb\(s\), 1 error\(s\), 1 warning\(s\)\n$/);
    expect(proc.stderr.text).toBe('');
    proc.stdout.flush();
    expect(proc.exits).toEqual([]);
    proc.stderr.flush();
    expect(proc.exits).toEqual([1]);
  });

  it('writes a usage error to stderr, nothing to stdout, and exits 2 after the flush', async () => {
    const proc = new FakeProcess(['node', 'sinew-verbs']);
    await runVerbsBin(proc);
    expect([proc.stdout.text, proc.stderr.text, proc.exitCode]).toEqual(['', 'sinew-verbs: missing command (manifest or check)\nRun `sinew-verbs --help` for usage.\n', 2]);
    proc.stderr.flush();
    proc.stdout.flush();
    expect(proc.exits).toEqual([2]);
  });

  it('exits 2 saying nothing was checked when the loop empties before the CLI answers', async () => {
    const proc = new FakeProcess(checkArgv(['dig_block']));
    const answered = runVerbsBin(proc);
    proc.emitBeforeExit();
    expect(proc.stderr.text).toBe('sinew-verbs: a loaded module never settled (a promise with nothing left to resolve it); nothing was checked\n');
    expect(proc.exits).toEqual([2]);
    await answered;
  });

  it('reports a CLI that throws while answering on stderr and exits 2 after the flush', async () => {
    const proc = new FakeProcess(['node', 'sinew-verbs', '--help'], { stdoutThrows: 'write EPIPE' });
    await runVerbsBin(proc);
    expect([proc.stdout.text, proc.stderr.text, proc.exitCode, proc.exits]).toEqual(['', 'sinew-verbs: write EPIPE\n', 2, []]);
    proc.stdout.flush();
    proc.stderr.flush();
    expect(proc.exits).toEqual([2]);
  });
});
