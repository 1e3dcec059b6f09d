// What grew between two heap snapshots of one process (the soak's `--snapshot-dir`: soak-warm / soak-end):
//   node --max-old-space-size=4096 --import tsx bench/heap-diff.ts DIR/soak-warm.heapsnapshot DIR/soak-end.heapsnapshot [top] [paths]
// Prints self size and count per constructor in both and the top growers; then, since object ids are stable within
// one process, the objects of the end snapshot that did not exist at the first, grouped the same way, with the
// shortest retainer path from the GC roots of a few of each of the top groups (or of the groups named).
import { readFileSync } from 'node:fs';

interface Snapshot {
  readonly nodes: number[];
  readonly edges: number[];
  readonly strings: string[];
  readonly nodeTypes: string[];
  readonly edgeTypes: string[];
  readonly nf: number;
  readonly ef: number;
  /** Index (in nodes) of each node's first edge. */
  readonly firstEdge: Uint32Array;
}

function load(path: string): Snapshot {
  const raw = JSON.parse(readFileSync(path, 'utf8'));
  const meta = raw.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const count = raw.nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i += 1) {
    firstEdge[i] = e;
    e += raw.nodes[i * nf + 4] * ef;
    firstEdge[i + 1] = e;
  }
  return { nodes: raw.nodes, edges: raw.edges, strings: raw.strings, nodeTypes: meta.node_types[0], edgeTypes: meta.edge_types[0], nf, ef, firstEdge };
}

/** The group a node is counted in: its constructor for objects, its kind otherwise. */
function groupOf(s: Snapshot, n: number): string {
  const type = s.nodeTypes[s.nodes[n * s.nf]!]!;
  const name = s.strings[s.nodes[n * s.nf + 1]!]!;
  if (type === 'object' || type === 'native') return name;
  if (type.includes('string')) return '(string)';
  return `(${type}) ${name.slice(0, 50)}`;
}

type Tally = Map<string, { size: number; count: number }>;

function tally(s: Snapshot, keep: (n: number) => boolean = () => true): Tally {
  const out: Tally = new Map();
  for (let n = 0; n < s.firstEdge.length - 1; n += 1) {
    if (!keep(n)) continue;
    const g = groupOf(s, n);
    const t = out.get(g) ?? { size: 0, count: 0 };
    t.size += s.nodes[n * s.nf + 3]!;
    t.count += 1;
    out.set(g, t);
  }
  return out;
}

/** Distance from the root along strong edges, and one nearest retainer (node, edge) per node. */
function retainers(s: Snapshot): { parent: Int32Array; via: Int32Array } {
  const count = s.firstEdge.length - 1;
  const parent = new Int32Array(count).fill(-1);
  const via = new Int32Array(count).fill(-1);
  const weak = s.edgeTypes.indexOf('weak');
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  parent[0] = 0;
  while (head < tail) {
    const n = queue[head++]!;
    for (let e = s.firstEdge[n]!; e < s.firstEdge[n + 1]!; e += s.ef) {
      if (s.edges[e] === weak) continue;
      const to = s.edges[e + 2]! / s.nf;
      if (parent[to] !== -1) continue;
      parent[to] = n;
      via[to] = e;
      queue[tail++] = to;
    }
  }
  return { parent, via };
}

function edgeName(s: Snapshot, e: number): string {
  const type = s.edgeTypes[s.edges[e]!]!;
  const nameOrIndex = s.edges[e + 1]!;
  return type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : `.${s.strings[nameOrIndex]}`;
}

function pathOf(s: Snapshot, r: { parent: Int32Array; via: Int32Array }, n: number): string {
  const parts: string[] = [];
  for (let at = n; at !== 0 && parts.length < 40; at = r.parent[at]!) {
    if (r.parent[at] === -1) return '(unreachable from the roots)';
    parts.unshift(`${edgeName(s, r.via[at]!)} → ${groupOf(s, at)}`);
  }
  return parts.join('\n      ');
}

const GENERIC = /^(Object|Array|Map|Set|system \/ Context|\((array|hidden|closure|string|number|object shape)\).*)$/;

/** New objects' self size by their nearest retainer (on the shortest path from the roots) that is not a plain container. */
function owners(s: Snapshot, r: { parent: Int32Array; via: Int32Array }, isNew: (n: number) => boolean): Tally {
  const out: Tally = new Map();
  for (let n = 1; n < s.firstEdge.length - 1; n += 1) {
    if (!isNew(n) || r.parent[n] === -1) continue;
    let at = r.parent[n]!;
    let edge = edgeName(s, r.via[n]!);
    for (let hops = 0; at !== 0 && GENERIC.test(groupOf(s, at)) && hops < 30; hops += 1) {
      edge = edgeName(s, r.via[at]!);
      at = r.parent[at]!;
    }
    const key = `${groupOf(s, at)} ${edge}`;
    const t = out.get(key) ?? { size: 0, count: 0 };
    t.size += s.nodes[n * s.nf + 3]!;
    t.count += 1;
    out.set(key, t);
  }
  return out;
}

function printTop(title: string, rows: [string, { size: number; count: number }][], top: number): void {
  console.log(`\n${title}`);
  for (const [g, t] of rows.slice(0, top)) console.log(`  ${(t.size / 1024).toFixed(1).padStart(10)} KB ${String(t.count).padStart(8)}  ${g}`);
}

function main(): void {
  const [warmPath, endPath, topArg, pathsArg, focusArg] = process.argv.slice(2);
  if (!warmPath || !endPath) throw new Error('usage: heap-diff.ts WARM.heapsnapshot END.heapsnapshot [top=25] [paths=3] [groups,to,trace]');
  const top = Number(topArg ?? 25);
  const warm = load(warmPath);
  const end = load(endPath);
  const before = tally(warm);
  const after = tally(end);
  const growth = [...after].map(([g, t]) => [g, { size: t.size - (before.get(g)?.size ?? 0), count: t.count - (before.get(g)?.count ?? 0) }] as [string, { size: number; count: number }]);
  const total = (t: Tally) => [...t.values()].reduce((a, b) => a + b.size, 0) / 1024 / 1024;
  console.log(`self size: ${total(before).toFixed(1)} MB → ${total(after).toFixed(1)} MB`);
  printTop('top growers (self size, count):', growth.sort((a, b) => b[1].size - a[1].size), top);
  const oldIds = new Set<number>();
  for (let n = 0; n < warm.firstEdge.length - 1; n += 1) oldIds.add(warm.nodes[n * warm.nf + 2]!);
  const isNew = (n: number) => !oldIds.has(end.nodes[n * end.nf + 2]!);
  const fresh = [...tally(end, isNew)].sort((a, b) => b[1].size - a[1].size);
  printTop('objects in the end snapshot that the first did not have:', fresh, top);
  const r = retainers(end);
  printTop('new objects by nearest named retainer (and its edge):', [...owners(end, r, isNew)].sort((a, b) => b[1].size - a[1].size), top);
  const paths = Number(pathsArg ?? 3);
  const traced = focusArg ? focusArg.split(',') : fresh.slice(0, Math.min(top, 12)).map(([g]) => g);
  for (const g of traced) {
    const all: number[] = [];
    for (let n = 0; n < end.firstEdge.length - 1; n += 1) if (isNew(n) && groupOf(end, n) === g) all.push(n);
    // evenly spread over the group, so one burst of allocation does not stand for all of it
    const sample = Array.from({ length: Math.min(paths, all.length) }, (_, i) => all[Math.floor((i * all.length) / paths)]!);
    console.log(`\n${g}:`);
    for (const n of sample) console.log(`  root\n      ${pathOf(end, r, n)}`);
  }
}

main();
