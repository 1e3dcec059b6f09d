// How long a mine may take, and how many moves it may make, from its args and where it starts: a deep mine is not
// cut by its own limits (diamond, seed 2: out of moves at y −49 after 138 of 160 from y 89; redstone × 4, seed 15:
// the executor's deadline, 3 × 120 s, ran out on the climb back and a retry was needed).
import { describe, expect, it } from 'vitest';
import { mine, MineArgsSchema, mineBudgetMs, mineExpectedMs, mineMoveLimit } from '../src/index.js';

const args = (input: Record<string, unknown>) => MineArgsSchema.parse(input);

describe("mine's move limit and expected duration follow the target's depth", () => {
  it('counts the stairs down to the level on top of maxMoves (none when already below it)', () => {
    expect(mineMoveLimit(args({ target: { ore: 'diamond' } }), 89)).toBe(139 + 160);
    expect(mineMoveLimit(args({ target: { ore: 'deepslate_diamond_ore' }, count: 3, counting: 'held' }), 89.9)).toBe(299);
    expect(mineMoveLimit(args({ target: { ore: 'diamond' } }), -57)).toBe(160);
    expect(mineMoveLimit(args({ target: { depth: -20 }, maxMoves: 12 }), 63)).toBe(83 + 12);
    // depth and ore: the depth asked wins over the ore's own level
    expect(mineMoveLimit(args({ target: { ore: 'iron', depth: 40 }, maxMoves: 1 }), 41)).toBe(2);
    expect(mineMoveLimit(args({ target: { ore: 'coal' } }), 72)).toBe(16 + 160);
  });

  it("gives the dig time for every move it may make at a loaded machine's pace (seed 2: 2.2 s a move; the old 300 s ran out at 138)", () => {
    const diamond = args({ target: { ore: 'diamond' }, count: 3, counting: 'held' });
    expect(mineBudgetMs(diamond, 89)).toBeGreaterThan(299 * 2_200);
    // and stays inside the executor's deadline for it (3 × the declared expected duration)
    expect(mineBudgetMs(diamond, 120)).toBeLessThan(3 * mine.expectedDurationMs!);
    expect(mineBudgetMs(args({ target: { ore: 'coal' } }), 60)).toBeLessThan(mineBudgetMs(diamond, 60));
  });

  it('expects a deep mine to take longer than a shallow one, and the climb back to add to it', () => {
    const deep = mineExpectedMs(args({ target: { ore: 'redstone' }, count: 4 }), 70);
    const shallow = mineExpectedMs(args({ target: { ore: 'coal' }, count: 4 }), 70);
    const climbing = mineExpectedMs(args({ target: { ore: 'redstone' }, count: 4, returnToSurface: true }), 70);
    expect(deep).toBeGreaterThan(shallow);
    expect(climbing).toBeGreaterThan(deep);
    expect(mineExpectedMs(args({ target: { depth: 0 } }), 64)).toBeLessThan(mineExpectedMs(args({ target: { depth: -40 } }), 64));
  });

  it("declares an expected duration whose deadline (3×) covers the deepest climbing mine from high ground, and redstone seed 15's 523 s", () => {
    const deepest = mineExpectedMs(args({ target: { ore: 'diamond' }, returnToSurface: true }), 120);
    expect(mine.expectedDurationMs).toBeGreaterThanOrEqual(deepest);
    expect(3 * mine.expectedDurationMs!).toBeGreaterThan(523_000);
  });
});
