import { join } from 'node:path';
import { give } from '@sinew/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { fixtures, memoryProject } from './helpers.js';
import { live, type Live } from './live.js';

let world: Live;

// Runners that log why with an imported logger (`logger.warn(…)`) right before `return false`: the codemod finds
// that call and the generated code collects what it is passed during the attempt.
beforeAll(async () => {
  world = await live([join(fixtures, 'logged/chores.js'), join(fixtures, 'logged/log.js')], {}, 'chores');
});
afterAll(() => world?.close());

const RUNNER = 'export async function fetch(bot, name) {\n  if (!name) {\n    report(name);\n    return false;\n  }\n  return true;\n}\n';

describe('failure reasons from a logger call', () => {
  it('reads the logger the runners call before returning false, imported from where they import it', () => {
    const text = world.result.changes.find((c) => c.path.endsWith('chores.capabilities.js'))!.after;
    expect(text).toContain("import { logger } from './log.js';");
    expect(text).toContain("const attempt = watchAttempt(ctx.body, { target: logger, method: 'warn' });");
  });

  it('hold_first: gave up before acting, so runner_error with what it logged, not only "returned false"', async () => {
    const outcome = await world.step('hold_first', { names: ['diamond_sword', 'golden_apple'] });
    expect(outcome.failure).toMatchObject({ code: 'runner_error', reason: 'none of diamond_sword, golden_apple in inventory (holdFirst returned false)' });
    await world.refused('hold_first', { names: 'diamond_sword' }, 'names');
  });

  it('empty_of: tossed some (it acted) and some are left, so effects_unmet with what it logged', async () => {
    await give(world.bot, 'dirt', 3);
    const outcome = await world.step('empty_of', { name: 'dirt', upTo: 1 });
    expect(outcome.failure).toMatchObject({ code: 'effects_unmet', reason: 'still carrying 2 dirt (emptyOf returned false)' });
    await world.refused('empty_of', { name: 'dirt', upTo: '2' }, 'upTo');
  });

  it('the logger still logs while watched, and is the same afterwards (the spy is removed)', async () => {
    const before = (await import(join(world.dir, 'log.js'))) as { logger: { warn: unknown; lines(): string[] } };
    // The same module instance the generated code watched: the line of the failed attempt above reached it.
    expect(before.logger.lines()).toContain('[warn] none of diamond_sword, golden_apple in inventory');
    const warn = before.logger.warn;
    await give(world.bot, 'stick', 1);
    await world.succeeds('hold_first', { names: ['stick'] });
    expect(world.bot.heldItem?.name).toBe('stick');
    expect(before.logger.warn).toBe(warn);
  });
});

describe('--failure-log chooses the source', () => {
  const generate = (failureLog: string | false) => {
    const project = memoryProject({ '/project/fetch.js': RUNNER });
    return wrapRunners(project, { files: ['/project/fetch.js'], failureLog }).changes.find((c) => c.kind === 'capabilities')!.after;
  };

  it.each([
    ['console.error', "watchAttempt(ctx.body, { target: console, method: 'error' })"],
    ['bot.output', "watchAttempt(ctx.body, { property: 'output' })"],
    ['chatter', "watchAttempt(ctx.body, { property: 'chatter' })"],
  ])('%s → %s', (option, expected) => {
    expect(generate(option)).toContain(expected);
  });

  it('none reads no log (a false result still fails, naming the runner)', () => {
    expect(generate(false)).toContain('const attempt = watchAttempt(ctx.body);');
  });

  it('by default never reads a logger the runner gets as a parameter (the generated code cannot reach it)', () => {
    const project = memoryProject({ '/project/tell.js': 'export async function tell(bot, agent) {\n  agent.log("no");\n  return false;\n}\n' });
    const text = wrapRunners(project, { files: ['/project/tell.js'] }).changes.find((c) => c.kind === 'capabilities')!.after;
    expect(text).toContain('const attempt = watchAttempt(ctx.body);');
  });

  it('refuses a value that is neither a property nor a logger method', () => {
    expect(() => generate('bot.output.text')).toThrow(/failureLog "bot.output.text" is neither a bot property/);
  });
});
