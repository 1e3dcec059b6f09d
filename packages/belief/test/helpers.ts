import { mulberry32 } from '@sinew/executor-contracts';
import type { EvidenceBatch, EvidenceItem } from '@sinew/belief';

/** Deterministic PRNG (mulberry32, from contracts) so every scene is reproducible. */
export const prng = mulberry32;

export const ORIGIN = { x: 0, y: 64, z: 0 } as const;

const CLASSES = ['zombie', 'skeleton', 'cow', 'pig', 'sheep', 'creeper'] as const;
const HOSTILE = new Set(['zombie', 'skeleton', 'creeper']);

export interface SceneEntity {
  readonly id: number;
  readonly cls: string;
  readonly hostile: boolean;
  x: number;
  y: number;
  z: number;
}

/** `count` entities standing still on a grid 3 blocks apart, away from bucket edges, around the origin. */
export function stableScene(count: number, seed = 1): SceneEntity[] {
  const rand = prng(seed);
  const side = Math.ceil(Math.sqrt(count));
  return Array.from({ length: count }, (_, i) => {
    const cls = CLASSES[Math.floor(rand() * CLASSES.length)]!;
    return {
      id: 1000 + i,
      cls,
      hostile: HOSTILE.has(cls),
      x: ((i % side) - side / 2) * 3 + 0.5,
      y: 64,
      z: (Math.floor(i / side) - side / 2) * 3 + 0.5,
    };
  });
}

/** The scene as one tick's evidence, with ±jitter on every coordinate and engine ids as hints. */
export function batchOf(entities: readonly SceneEntity[], rand: () => number, jitter = 0.02): EvidenceBatch {
  const items: EvidenceItem[] = entities.map((e) => ({
    cls: e.cls,
    hostile: e.hostile,
    hint: String(e.id),
    position: {
      x: e.x + (rand() * 2 - 1) * jitter,
      y: e.y + (rand() * 2 - 1) * jitter,
      z: e.z + (rand() * 2 - 1) * jitter,
    },
  }));
  return { observer: { ...ORIGIN }, items };
}

/** Fisher–Yates with a seeded PRNG: the raw entity order a Map or `Object.values` might hand us. */
export function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
