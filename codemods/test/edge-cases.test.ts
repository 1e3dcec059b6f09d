import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners, type WrapResult } from '../src/index.js';
import { fixtures, memoryProject, typecheck } from './helpers.js';

// Virtual files under the fixtures folder (never written): node_modules and the contracts resolve from there.
const dir = join(fixtures, 'virtual');
const sources: Record<string, string> = {
  [join(dir, 'edge.ts')]: `
interface Bot { chat(message: string): void }

/** A runner whose name clashes with a helper of the generated file. */
export async function settle(bot: Bot, debt: number): Promise<void> {
  bot.chat(String(debt));
}

export async function z(bot: Bot, { word, loud = false }: { word: string; loud?: boolean }): Promise<boolean> {
  bot.chat(loud ? word.toUpperCase() : word);
  return true;
}

export class PingLeaf {
  spec = { name: 'ping' };
  constructor(private readonly bot: Bot) {}
  async run(ctx: { bot: Bot }): Promise<{ status: 'success' }> {
    ctx.bot.chat('pong');
    return { status: 'success' };
  }
}

export class Hidden {
  constructor(private readonly bot: Bot) {}
  private async executeAction(action: { type: 'x' }): Promise<void> {}
}

export class NeedsConfig {
  constructor(private readonly bot: Bot, private readonly config: { speed: number }) {}
  async executeAction(action: { type: 'go' }): Promise<void> {
    switch (action.type) {
      case 'go':
        return;
    }
  }
}

export async function generic<T>(bot: Bot, value: T): Promise<void> {}

export default async function main(bot: Bot): Promise<void> {}

const log = { warn: (...parts: unknown[]): void => void parts };

function runAsAction<A extends unknown[]>(fn: (agent: { bot: Bot }, ...args: A) => Promise<boolean | string>) {
  return async (agent: { bot: Bot }, ...args: A): Promise<string> => {
    try {
      const result = await fn(agent, ...args);
      if (result === false) return 'Action failed.';
      return typeof result === 'string' ? result : 'Done.';
    } catch (error) {
      return \`Action threw: \${String(error)}\`;
    }
  };
}

export const commands = [
  {
    name: '!shout',
    params: { text: { type: 'string' } },
    perform: runAsAction(async (agent, text: string) => {
      if (!text) {
        log.warn('nothing to shout');
        return false;
      }
      agent.bot.chat(text.toUpperCase());
      return true;
    }),
  },
];
`,
};

describe('edge cases', () => {
  let result: WrapResult;
  let text: string;
  const find = (symbol: string) => result.report.findings.find((f) => f.symbol === symbol);

  beforeAll(() => {
    const project = memoryProject(sources);
    result = wrapRunners(project, { files: Object.keys(sources) });
    text = result.changes.find((c) => c.path.endsWith('edge.capabilities.ts'))!.after;
  });

  it('aliases imported runners whose names clash with generated names', () => {
    expect(text).toContain('import { NeedsConfig, PingLeaf, commands, log, settle as settleRunner, z as zRunner, type Bot } from');
    expect(text).toContain('await settleRunner(ctx.body, args.debt)');
    expect(text).toContain("fromBoolean(await zRunner(ctx.body, args), 'z', attempt)");
  });

  it('exports a local Bot type the generated file needs', () => {
    const edit = result.changes.find((c) => c.kind === 'export');
    expect(edit?.after).toContain('export interface Bot { chat(message: string): void }');
  });

  it('calls a leaf without args with its context only, built with the bot', () => {
    expect(text).toContain('const pingLeafFor = perBody((body: Bot) => new PingLeaf(body));');
    expect(text).toContain('pingLeafFor(ctx.body).run({ bot: ctx.body })');
    expect(text).toContain("name: 'ping'");
  });

  it('skips what the generated code could not call or build, with reasons', () => {
    expect(find('Hidden.executeAction')).toMatchObject({ kind: 'skipped', reason: 'executeAction is private; the generated code cannot call it' });
    expect(find('generic')).toMatchObject({ kind: 'skipped', code: 'unsupported_type' });
    expect(find('main')).toMatchObject({ kind: 'skipped', code: 'default_export' });
  });

  it('builds a class whose constructor needs more than the bot through the context file, unmapped until filled in', () => {
    expect(find('NeedsConfig.executeAction#go')).toMatchObject({ kind: 'wrapped', shape: 'dispatcher' });
    expect(text).toContain('const needsConfigFor = perBody((body: Bot) => newNeedsConfig(body));');
    expect(text).toContain("import { newNeedsConfig, toAgent } from './sinew.context.js';");
    const context = result.changes.find((c) => c.kind === 'context')!.after;
    expect(context).toContain("return new NeedsConfig(bot, unmapped('config', 'newNeedsConfig'));");
  });

  it('reads a TypeScript wrapper for its failure texts, and a local logger (exported for it) for failure reasons', () => {
    expect(text).toContain(
      "fromWrapped(await commandNamed(commands, '!shout').perform(toAgent(ctx), args.text), '!shout', [{ prefix: 'Action failed.', when: 'returned_false' }, { prefix: 'Action threw:', when: 'threw' }], attempt)",
    );
    expect(text).toContain("const attempt = watchAttempt(ctx.body, { target: log, method: 'warn' });");
    expect(result.changes.find((c) => c.kind === 'export')?.after).toContain('export const log = {');
  });

  it('type-checks against the real contracts', () => {
    const edited = { ...sources };
    for (const change of result.changes) if (change.kind === 'export') edited[change.path] = change.after;
    expect(typecheck(edited, result.changes.filter((c) => c.kind !== 'export'))).toEqual([]);
  });
});
