import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wrapRunners, type WrapResult } from '../src/index.js';
import { fixture, memoryProject } from './helpers.js';

function wrap(files: Record<string, string>): WrapResult {
  return wrapRunners(memoryProject(files), { files: Object.keys(files) });
}

function textOf(result: WrapResult, path: string): string {
  const change = result.changes.find((c) => c.path === path);
  expect(change, `no change for ${path}`).toBeDefined();
  return change!.after;
}

/** Node's own parser accepts the file as JavaScript (no TypeScript syntax left). */
function nodeParses(text: string, extension: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-js-'));
  try {
    const file = join(dir, `generated${extension}`);
    writeFileSync(file, text);
    return spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' }).stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ESM = `
/**
 * Collects blocks of a type.
 * @param {import('mineflayer').Bot} bot
 * @param {string} blockType
 * @param {number} [num=1]
 * @param {'near' | 'far'} [order='near']
 * @param {string[] | null} [exclude=null]
 * @param {{ x: number, y: number, z: number }} [around]
 */
export async function collectBlock(bot, blockType, num = 1, order = 'near', exclude = null, around) {
  return bot.dig(blockType, num, order, exclude, around);
}

/** Waits without JSDoc: the type comes from the default. */
export async function wait(bot, ticks = 20, note) {
  await bot.waitForTicks(ticks);
}

async function helper(bot) {}
`;

describe('JavaScript ES modules (JSDoc types, JS out)', () => {
  const result = wrap({ '/project/src/skills.js': ESM });
  const text = textOf(result, '/project/src/skills.capabilities.js');

  it('reads parameter types from JSDoc: strings, numbers, string unions, arrays, null, object types', () => {
    expect(text).toContain('blockType: z.string(),');
    expect(text).toContain("order: z.enum(['near', 'far']).default('near'),");
    expect(text).toContain('exclude: z.array(z.string()).nullable().optional(),');
    expect(text).toMatch(/around: z\.strictObject\(\{\s+x: z\.number\(\),\s+y: z\.number\(\),\s+z: z\.number\(\),\s+\}\)\.optional\(\),/);
  });

  it('turns defaults (JSDoc [num=1] or num = 1) into .default() and an untyped parameter into a marked z.unknown()', () => {
    expect(text).toContain('num: z.number().default(1),');
    expect(text).toContain('ticks: z.number().default(20),');
    expect(text).toContain('note: z.unknown() /* sinew-codemod: args.note is typed any');
  });

  it('writes an ES module without TypeScript syntax that imports the skills by their file name', () => {
    expect(text).toContain("import { collectBlock, wait } from './skills.js';");
    expect(text).toContain('export const collectBlockCapability = defineCapability({');
    expect(text).toContain('run: (ctx, args) =>');
    expect(text).not.toMatch(/import type|: RunContext|: RunnerResult/);
    expect(nodeParses(text, '.mjs')).toBe('');
  });

  it('writes a JavaScript registry beside it', () => {
    const registry = textOf(result, '/project/src/sinew.registry.js');
    expect(registry).toContain("import { collectBlockCapability, waitCapability } from './skills.capabilities.js';");
    expect(nodeParses(registry, '.mjs')).toBe('');
  });

  it('reports unexported helpers as skipped', () => {
    expect(result.report.findings.find((f) => f.symbol === 'helper')).toMatchObject({ kind: 'skipped', code: 'not_exported' });
  });
});

const CJS = `
const { goals } = require('mineflayer-pathfinder');

/**
 * Equips an item.
 * @param {object} bot
 * @param {string} itemName
 * @param {'hand' | 'off-hand'} [destination='hand']
 * @returns {Promise<boolean>}
 */
async function equipItem(bot, itemName, destination = 'hand') {
  return true;
}

/** @param {object} bot */
async function notListed(bot) {}

module.exports = {
  equipItem,
  /**
   * Says something.
   * @param {object} bot
   * @param {string} message
   */
  async say(bot, message) {
    bot.chat(message);
  },
};

/**
 * Walks somewhere.
 * @param {object} bot
 * @param {number} x
 * @param {number} z
 */
exports.walk = async function (bot, x, z) {
  await bot.pathfinder.goto(new goals.GoalXZ(x, z));
};
`;

describe('JavaScript CommonJS modules', () => {
  const result = wrap({ '/project/lib/actions.cjs': CJS });
  const text = textOf(result, '/project/lib/actions.capabilities.cjs');

  it('wraps what module.exports = { … } and exports.x = … hand out, and only that', () => {
    expect(result.report.findings.filter((f) => f.kind === 'wrapped').map((f) => f.verb)).toEqual(['equip_item', 'say', 'walk']);
    expect(result.report.findings.find((f) => f.symbol === 'notListed')).toMatchObject({ kind: 'skipped', code: 'not_exported' });
  });

  it('writes CommonJS: require, module.exports, JSDoc types on the helpers', () => {
    expect(text).toContain("const { defineCapability, describeError, fail, guardOk, unverified } = require('@sinew/executor-contracts');");
    expect(text).toContain("const { equipItem, say, walk } = require('./actions.cjs');");
    expect(text).toMatch(/^module\.exports = \{ (equipItemCapability|sayCapability|walkCapability)(, (equipItemCapability|sayCapability|walkCapability)){2} \};$/m);
    expect(text).toContain("destination: z.enum(['hand', 'off-hand']).default('hand'),");
    expect(text).toContain('@param {{ readonly signal: AbortSignal }} ctx');
    expect(text).not.toContain('export ');
    expect(nodeParses(text, '.cjs')).toBe('');
  });

  it('writes a CommonJS registry', () => {
    const registry = textOf(result, '/project/lib/sinew.registry.cjs');
    expect(registry).toContain("const { equipItemCapability, sayCapability, walkCapability } = require('./actions.capabilities.cjs');");
    expect(registry).toContain('module.exports = { registry };');
    expect(nodeParses(registry, '.cjs')).toBe('');
  });
});

describe('a second run over another CommonJS file', () => {
  it('keeps the capability files an earlier run registered', () => {
    const project = memoryProject({ '/project/lib/actions.cjs': CJS, '/project/lib/more.cjs': 'exports.ping = async function (bot) {};\n' });
    const first = wrapRunners(project, { files: ['/project/lib/actions.cjs'] });
    for (const change of first.changes) project.getFileSystem().writeFileSync(change.path, change.after);
    const second = wrapRunners(project, { files: ['/project/lib/more.cjs'] });
    const registry = second.changes.find((c) => c.kind === 'registry')!.after;
    expect(registry).toContain("require('./actions.capabilities.cjs');");
    expect(registry).toContain("const { pingCapability } = require('./more.capabilities.cjs');");
    expect(registry).toMatch(/\.register\(equipItemCapability\)[\s\S]*\.register\(pingCapability\)/);
  });
});

describe('the realistic JS skills library (mineflayer, JSDoc)', () => {
  const result = wrap({ '/project/src/skills.js': fixture('js/skills.js') });
  const text = textOf(result, '/project/src/skills.capabilities.js');
  const exported = [...fixture('js/skills.js').matchAll(/^export async function (\w+)/gm)].map((m) => m[1]);

  it('wraps at least 90 % of its exported async skills', () => {
    expect(exported.length).toBeGreaterThanOrEqual(30);
    const wrapped = result.report.findings.filter((f) => f.kind === 'wrapped').map((f) => f.symbol);
    expect(wrapped.length / exported.length).toBeGreaterThanOrEqual(0.9);
  });

  it('leaves at most 10 % of the arguments as z.unknown()', () => {
    const schemas = [...text.matchAll(/inputSchema: (z\.strictObject\(\{[\s\S]*?\n {2}\}\)|z\.strictObject\(\{\}\))/g)].map((m) => m[1]!);
    const argumentLines = schemas.flatMap((s) => s.split('\n').filter((line) => /^ {4}\w+: /.test(line)));
    const unknown = argumentLines.filter((line) => line.includes('z.unknown()'));
    expect(argumentLines.length).toBeGreaterThan(60);
    expect(unknown.length / argumentLines.length).toBeLessThanOrEqual(0.1);
  });

  it('is plain JavaScript Node can parse', () => {
    expect(nodeParses(text, '.mjs')).toBe('');
  });
});
