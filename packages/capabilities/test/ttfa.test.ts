import { leasedView, type ActuatorLease } from '@sinew/bt-runtime';
import { describe, expect, it } from 'vitest';
import { movementsFor } from '../src/body/walking.js';
import { useWorld } from './world.js';

const world = useWorld('ttfa');

const lease = (): ActuatorLease => ({ expired: false, stale: () => undefined });

describe('time to first action: what a runner builds before its first command', () => {
  it('builds pathfinder movements once per bot, not once per attempt view', () => {
    const { bot } = world;
    const first = movementsFor(leasedView(bot, lease()));
    expect(movementsFor(leasedView(bot, lease()))).toBe(first);
    expect(movementsFor(bot)).toBe(first);
  });
});
