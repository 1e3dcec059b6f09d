import type { CanonicalEvidence } from '../evidence.js';
import type { Track } from './track.js';

/** The association gate on integer units: a base radius, widened per unseen tick up to a ceiling. */
export interface AssociationGate {
  readonly base: number;
  readonly perUnseenTick: number;
  readonly max: number;
}

/** Ticks a track's last position is extrapolated by its velocity on `tick` (its expected position: position + velocity × ticks). */
export type Prediction = (t: Track, tick: number) => number;

interface Pair {
  readonly cost: number;
  readonly track: Track;
  readonly evidence: number;
}

/** First index in [lo, hi) whose value is ≥ `value` (`values` ascending there). */
function lowerBound(values: Float64Array, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Applies the class gate and the id-hint discount; undefined when the class gate closes. */
function pairCost(t: Track, e: CanonicalEvidence, distance2: number, gate2: number): number | undefined {
  const hinted = e.hint !== undefined && e.hint === t.hint;
  let cost = distance2;
  if (e.cls !== t.bestClass) {
    // class is a gate: only an unknown class, or the engine's id hint, lets a different class through
    if (e.cls === 'unknown' || t.bestClass === 'unknown') cost += gate2 >> 2;
    else if (hinted) cost += gate2 >> 1;
    else return undefined;
  }
  return hinted ? Math.floor(cost / 4) : cost;
}

/**
 * Evidence sorted into x columns one gate wide (a track seen last tick) and by z inside a column, so a track visits only the
 * columns its gate overlaps and the z window in each. Buffers and the cell order are kept across ticks: a stable
 * entity table leaves the order sorted, and the sort only confirms it.
 */
function createCellIndex(columnWidth: number) {
  let byCell: number[] = []; // input indices by (column, z); ties in any order (pairs are sorted totally)
  let keys = new Float64Array(0); // per input index: column, z
  let canonicalIndex = new Int32Array(0); // per input index
  let xs = new Float64Array(0), ys = new Float64Array(0), zs = new Float64Array(0); // in cell order
  let columns = new Float64Array(0); // distinct columns, ascending
  let columnStart = new Int32Array(1); // where each distinct column begins in cell order (+ end sentinel)
  let columnCount = 0;

  function grow(n: number): void {
    const size = Math.max(n, 64, xs.length * 2);
    keys = new Float64Array(size * 2);
    canonicalIndex = new Int32Array(size);
    xs = new Float64Array(size);
    ys = new Float64Array(size);
    zs = new Float64Array(size);
    columns = new Float64Array(size);
    columnStart = new Int32Array(size + 1);
  }

  /** Indexes this tick's evidence (in canonical order). */
  function build(evidence: readonly CanonicalEvidence[]): void {
    const n = evidence.length;
    if (xs.length < n) grow(n);
    if (byCell.length !== n) byCell = Array.from({ length: n }, (_, i) => i);
    for (let c = 0; c < n; c += 1) {
      const e = evidence[c]!;
      canonicalIndex[e.input] = c;
      keys[2 * e.input] = Math.floor(e.x / columnWidth);
      keys[2 * e.input + 1] = e.z;
    }
    const k = keys;
    byCell.sort((a, b) => k[2 * a]! - k[2 * b]! || k[2 * a + 1]! - k[2 * b + 1]!);
    columnCount = 0;
    for (let s = 0; s < n; s += 1) {
      const i = byCell[s]!;
      const e = evidence[canonicalIndex[i]!]!;
      xs[s] = e.x;
      ys[s] = e.y;
      zs[s] = e.z;
      if (columnCount === 0 || columns[columnCount - 1] !== keys[2 * i]) {
        columns[columnCount] = keys[2 * i]!;
        columnStart[columnCount] = s;
        columnCount += 1;
      }
    }
    columnStart[columnCount] = n;
  }

  /** Calls `visit(canonical index, squared distance)` for every item within `gate` of (x, y, z) on each axis and in the sphere. */
  function near(x: number, y: number, z: number, gate: number, visit: (index: number, distance2: number) => void): void {
    const gate2 = gate * gate;
    const lastColumn = Math.floor((x + gate) / columnWidth);
    for (let c = lowerBound(columns, 0, columnCount, Math.floor((x - gate) / columnWidth)); c < columnCount && columns[c]! <= lastColumn; c += 1) {
      const end = columnStart[c + 1]!;
      for (let s = lowerBound(zs, columnStart[c]!, end, z - gate); s < end && zs[s]! <= z + gate; s += 1) {
        const dx = xs[s]! - x;
        if (dx > gate || dx < -gate) continue;
        const dy = ys[s]! - y, dz = zs[s]! - z;
        const distance2 = dx * dx + dy * dy + dz * dz;
        if (distance2 <= gate2) visit(canonicalIndex[byCell[s]!]!, distance2);
      }
    }
  }

  return { build, near };
}

/**
 * Builds the bus's associator: greedy global assignment of evidence to tracks, cheapest gated pair first (ties by
 * track id, then canonical evidence index). Marks each matched track seen on `tick` (prevSeenTick keeps the gap).
 */
export function createAssociator(gate: AssociationGate, predict: Prediction) {
  const cells = createCellIndex(Math.max(1, gate.base + gate.perUnseenTick));
  return (evidence: readonly CanonicalEvidence[], tracks: Iterable<Track>, tick: number): (Track | undefined)[] => {
    cells.build(evidence);
    const pairs: Pair[] = [];
    for (const t of tracks) {
      const radius = Math.min(gate.max, gate.base + gate.perUnseenTick * (tick - t.lastSeenTick));
      const k = predict(t, tick);
      cells.near(t.x + t.vx * k, t.y + t.vy * k, t.z + t.vz * k, radius, (i, distance2) => {
        const cost = pairCost(t, evidence[i]!, distance2, radius * radius);
        if (cost !== undefined) pairs.push({ cost, track: t, evidence: i });
      });
    }
    pairs.sort((a, b) => a.cost - b.cost || a.track.id - b.track.id || a.evidence - b.evidence);
    const matched = new Array<Track | undefined>(evidence.length).fill(undefined);
    for (const p of pairs) {
      const t = p.track;
      if (matched[p.evidence] !== undefined || t.lastSeenTick === tick) continue;
      matched[p.evidence] = t;
      t.prevSeenTick = t.lastSeenTick; // velocity needs the gap; lastSeenTick now marks the track taken
      t.lastSeenTick = tick;
    }
    return matched;
  };
}
