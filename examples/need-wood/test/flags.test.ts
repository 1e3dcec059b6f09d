import { describe, expect, it } from 'vitest';
import { FlagsSchema, misplacedFlags, parseFlags } from '../src/flags.js';

describe('demo flags', () => {
  it('--minutes needs --autonomous, and the one-plan flags are refused with --autonomous (never ignored)', () => {
    expect(misplacedFlags({ minutes: '2' })).toEqual(['--minutes needs --autonomous']);
    expect(misplacedFlags({ autonomous: true, goal: 'iron_pickaxe', 'keep-alive': true })).toEqual(['--keep-alive is not read by --autonomous', '--goal is not read by --autonomous']);
    expect(misplacedFlags({ autonomous: true, minutes: '1', port: '0' })).toEqual([]);
    expect(misplacedFlags({ autonomous: true, world: 'terrain', inventory: 'stick=2' })).toEqual(['--inventory is not read by --autonomous', '--world is not read by --autonomous']);
  });

  it('--minutes is a positive number up to 120', () => {
    expect(FlagsSchema.parse({ autonomous: true, minutes: '0.5' }).minutes).toBe(0.5);
    expect(FlagsSchema.safeParse({ autonomous: true, minutes: '0' }).success).toBe(false);
    expect(FlagsSchema.safeParse({ autonomous: true, minutes: '500' }).success).toBe(false);
  });

  it('a user goal: any item of the version, a count, a starting inventory, a generated world and its seed', () => {
    const parsed = parseFlags(['--goal', 'cooked_beef', '--count', '3', '--inventory', 'iron_sword=1, oak_log=12,oak_log=4', '--world', 'terrain', '--seed', '42']);
    expect(parsed).toEqual({ ok: true, flags: expect.objectContaining({ goal: 'cooked_beef', count: 3, inventory: { iron_sword: 1, oak_log: 16 }, world: 'terrain', seed: 42, peaceful: false }) });
    expect(parseFlags([])).toEqual({ ok: true, flags: expect.objectContaining({ goal: 'wooden_pickaxe', count: 1, world: 'placed', seed: 1 }) });
    expect(parseFlags(['--goal', 'diamond_pickaxe', '--world', 'terrain', '--peaceful', '--time-limit', '900'])).toMatchObject({ ok: true, flags: { goal: 'diamond_pickaxe', peaceful: true, 'time-limit': 900 } });
  });

  it('refuses what is not an item, a bad count or inventory entry, an unknown world, and says which', () => {
    const refused = (argv: string[]) => {
      const parsed = parseFlags(argv);
      return parsed.ok ? 'accepted' : parsed.message;
    };
    expect(refused(['--goal', 'diamond_pickax'])).toContain('no item "diamond_pickax" in Minecraft 1.20.4');
    expect(refused(['--goal', 'Iron Pickaxe'])).toContain('an item name like iron_pickaxe');
    expect(refused(['--count', '0'])).toMatch(/count/);
    expect(refused(['--count', '2.5'])).toMatch(/count/);
    expect(refused(['--inventory', 'stick'])).toMatch(/inventory/);
    expect(refused(['--inventory', 'stick=-1'])).toMatch(/inventory/);
    expect(refused(['--inventory', 'stik=2'])).toContain('no item "stik"');
    expect(refused(['--world', 'nether'])).toMatch(/world/);
    expect(refused(['--peaceful'])).toContain('--peaceful needs --world terrain');
  });

  it('refuses an unknown flag or a stray argument (no silent ignore)', () => {
    expect(parseFlags(['--goal', 'torch', '--colour', 'red'])).toEqual({ ok: false, message: expect.stringContaining("Unknown option '--colour'") });
    expect(parseFlags(['torch'])).toEqual({ ok: false, message: expect.stringContaining('positional') });
  });
});
