import { describe, expect, it } from 'vitest';
import { FlagsSchema, misplacedFlags } from '../src/flags.js';

describe('demo flags', () => {
  it('--minutes needs --autonomous, and the one-plan flags are refused with --autonomous (never ignored)', () => {
    expect(misplacedFlags({ minutes: '2' })).toEqual(['--minutes needs --autonomous']);
    expect(misplacedFlags({ autonomous: true, goal: 'iron_pickaxe', 'keep-alive': true })).toEqual(['--keep-alive is not read by --autonomous', '--goal is not read by --autonomous']);
    expect(misplacedFlags({ autonomous: true, minutes: '1', port: '0' })).toEqual([]);
  });

  it('--minutes is a positive number up to 120', () => {
    expect(FlagsSchema.parse({ autonomous: true, minutes: '0.5' }).minutes).toBe(0.5);
    expect(FlagsSchema.safeParse({ autonomous: true, minutes: '0' }).success).toBe(false);
    expect(FlagsSchema.safeParse({ autonomous: true, minutes: '500' }).success).toBe(false);
  });
});
