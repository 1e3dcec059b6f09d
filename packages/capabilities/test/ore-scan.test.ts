import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import type { SinewBot } from '../src/bot.js';
import { nextAim, oreToward } from '../src/body/mining.js';

const COAL = 7;

/**
 * A body that knows its blocks the way mineflayer's `findBlocks` answers (nearest first, at most `count`) and has no
 * chunk columns, so the search falls back to it (within its radius): a vein of coal in the roof close by and one coal block lower down.
 */
function body(ores: readonly Vec3[]): SinewBot {
  const feet = new Vec3(0, 56, 0);
  const at = (p: Vec3) => ores.find((o) => o.equals(p.floored()));
  return {
    entity: { position: feet.offset(0.5, 0, 0.5) },
    registry: { blocks: {} },
    world: {},
    blockAt: (p: Vec3) => ({ name: at(p) ? 'coal_ore' : 'stone', type: at(p) ? COAL : 1, boundingBox: 'block', position: p.floored() }),
    findBlocks: ({ count, point, maxDistance }: { count: number; point: Vec3; maxDistance: number }) =>
      ores.filter((o) => o.distanceTo(point) <= maxDistance).sort((a, b) => a.distanceTo(point) - b.distanceTo(point)).slice(0, count),
  } as unknown as SinewBot;
}

describe('oreToward: the ore a mine heads for', () => {
  it('finds coal below the head even when more than 16 nearer coal blocks are above it (coal is densest higher up)', () => {
    const roof: Vec3[] = [];
    for (let x = -2; x <= 2; x++) for (let z = -2; z <= 2; z++) roof.push(new Vec3(x, 60, z));
    const below = new Vec3(6, 50, 3);
    expect(roof.length).toBeGreaterThan(16);
    const aim = oreToward(body([...roof, below]), [COAL], new Set());
    expect(aim?.toString()).toBe(below.toString());
  });

  it('finds the ore the chunk data holds 28 blocks off, beyond the 12 blocks the tunnel walls show, behind 300 coal above', () => {
    const roof: Vec3[] = [];
    for (let x = -10; x < 10; x++) for (let z = -7; z < 8; z++) roof.push(new Vec3(x, 58, z));
    const far = new Vec3(-20, 40, 14);
    expect(roof.length).toBe(300);
    expect(oreToward(body([...roof, far]), [COAL], new Set())?.toString()).toBe(far.toString());
    expect(oreToward(body([...roof, new Vec3(-30, 40, 14)]), [COAL], new Set())).toBeUndefined();
  });

  it('heads for nothing when every ore is above the head, and skips ores tried before', () => {
    expect(oreToward(body([new Vec3(1, 60, 1)]), [COAL], new Set())).toBeUndefined();
    expect(oreToward(body([new Vec3(2, 55, 0)]), [COAL], new Set(['2,55,0']))).toBeUndefined();
  });
});

describe('nextAim: the ore a mine keeps heading for', () => {
  it('keeps one ore while the tunnel gets on; when the feet come back to a cell they passed it gives up that whole vein', () => {
    const vein = [new Vec3(-3, 56, 4), new Vec3(-4, 56, 4), new Vec3(-4, 57, 5)];
    const other = new Vec3(9, 55, -9);
    const bot = body([...vein, other]);
    const tried = new Set<string>();
    const walk = (x: number) => (bot.entity.position = new Vec3(x + 0.5, 56, 0.5));
    let aim = nextAim(bot, undefined, [COAL], tried);
    expect(aim?.at.toString()).toBe(vein[0]!.toString());
    // A cave between turns each move aside: east, east, back west — the cell 1,56,0 comes round twice.
    for (const x of [1, 2]) {
      walk(x);
      aim = nextAim(bot, aim, [COAL], tried);
      expect(aim?.at.toString()).toBe(vein[0]!.toString());
    }
    walk(1);
    aim = nextAim(bot, aim, [COAL], tried);
    expect(aim?.at.toString()).toBe(other.toString());
    expect([...tried].sort()).toEqual(vein.map((v) => `${v.x},${v.y},${v.z}`).sort());
  });

  it('gives an ore up once its moves run out (twice the way there and 8) even without a loop', () => {
    const ore = new Vec3(2, 56, 0);
    const bot = body([ore]);
    const tried = new Set<string>();
    let aim = nextAim(bot, undefined, [COAL], tried);
    expect(aim?.movesLeft).toBe(2 * 2 + 8);
    for (let x = 1; x <= 12; x++) {
      bot.entity.position = new Vec3(0.5, 56 - x, 0.5);
      aim = nextAim(bot, aim, [COAL], tried);
    }
    expect(aim?.at.toString()).toBe(ore.toString());
    bot.entity.position = new Vec3(0.5, 30, 0.5);
    expect(nextAim(bot, aim, [COAL], tried)).toBeUndefined();
    expect(tried.has('2,56,0')).toBe(true);
  });
});
