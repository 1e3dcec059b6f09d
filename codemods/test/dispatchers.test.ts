import { describe, expect, it } from 'vitest';
import { wrapRunners } from '../src/index.js';
import { memoryProject } from './helpers.js';

const BODY = `export interface Bot { chat(message: string): void; dig(x: number, y: number, z: number): Promise<void>; }\n`;

const FREE = `import type { Bot } from './body.js';

type Mode = 'walk' | 'sprint' | 'sneak';
type Action =
  | { type: 'dig'; x: number; y: number; z: number }
  | { type: 'break'; x: number; y: number; z: number }
  | { type: 'mine'; block: string; count?: number }
  | { type: 'say'; message: string };

/** Digs the block at a position. */
async function digAt(bot: Bot, x: number, y: number, z: number): Promise<boolean> {
  await bot.dig(x, y, z);
  return true;
}

/** Runs one planner action. */
export async function executeAction(bot: Bot, action: Action): Promise<boolean> {
  switch (action.type) {
    case 'dig':
    case 'break':
    case 'mine':
      return 'block' in action ? false : digAt(bot, action.x, action.y, action.z);
    case 'say':
      bot.chat(action.message);
      return true;
    default:
      return false;
  }
}

/** Moves in a mode. */
async function move(bot: Bot, mode: Mode, distance: number): Promise<boolean> {
  return distance > 0 && mode !== 'sneak';
}

/** The older, loosely typed dispatcher. */
export async function runCommand(bot: Bot, command: { type: string; mode?: string; distance?: number; text?: string }): Promise<boolean> {
  switch (command.type) {
    case 'move':
      return move(bot, command.mode as Mode, command.distance ?? 4);
    case 'shout':
      bot.chat(String(command.text).toUpperCase());
      return true;
  }
  return false;
}
`;

describe('free-function dispatchers (executeAction(bot, action) with a switch)', () => {
  const project = memoryProject({ '/project/src/body.ts': BODY, '/project/src/actions.ts': FREE });
  const result = wrapRunners(project, { files: ['/project/src/actions.ts'] });
  const text = result.changes.find((c) => c.path === '/project/src/actions.capabilities.ts')?.after ?? '';
  const wrapped = result.report.findings.filter((f) => f.kind === 'wrapped');

  it('makes one capability per case, not one execute_action verb', () => {
    expect(wrapped.map((f) => `${f.shape}:${f.verb}`)).toEqual(['dispatcher:dig', 'dispatcher:mine', 'dispatcher:say', 'dispatcher:move']);
    expect(text).not.toContain("name: 'execute_action'");
    expect(text).toContain("executeAction(ctx.body, { type: 'say', ...args })");
  });

  it('keeps fall-through labels with the same input as aliases, and one with different input as its own capability', () => {
    expect(text).toContain("aliases: ['break'],");
    expect(text).toMatch(/name: 'mine',[\s\S]*?block: z\.string\(\),\s+count: z\.number\(\)\.optional\(\),/);
    expect(text).toContain("executeAction(ctx.body, { type: 'mine', ...args })");
  });

  it('turns an `as Union` cast of a loose action field into z.enum of its members, and `?? 4` into a default', () => {
    expect(text).toContain("mode: z.enum(['walk', 'sprint', 'sneak']),");
    expect(text).toContain('distance: z.number().default(4),');
    expect(text).toContain("runCommand(ctx.body, { type: 'move', ...args })");
  });

  it('reports a case whose input cannot be read as skipped, not as a guess', () => {
    expect(result.report.findings.find((f) => f.symbol === 'runCommand#shout')).toMatchObject({ kind: 'skipped', code: 'no_runner_call' });
  });
});
