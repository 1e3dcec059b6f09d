// A minimal semver: enough to order capability versions and match the range forms planners use
// (exact, x-ranges, ^, ~, comparators, space = and, || = or). Keeps executor-contracts zod-only.

/** A parsed version: major, minor, patch, prerelease ('' for a release). */
export type Version = readonly [number, number, number, string];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

/** Parses `major.minor.patch[-prerelease]` (leading `v` allowed); undefined when malformed. */
export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''] : undefined;
}

/** Orders two versions: negative, zero or positive; a release outranks its prereleases. */
export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i += 1) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return Math.sign(d);
  }
  if (a[3] === b[3]) return 0;
  if (a[3] === '') return 1; // a release outranks its prereleases
  if (b[3] === '') return -1;
  return a[3] < b[3] ? -1 : 1;
}

type Comparator = (v: Version) => boolean;

function partial(text: string): { parts: number[]; pre: string } | undefined {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/.exec(text);
  if (!m) return undefined;
  const parts: number[] = [];
  for (const p of [m[1], m[2], m[3]]) {
    if (p === undefined || /[xX*]/.test(p)) break;
    parts.push(Number(p));
  }
  return { parts, pre: m[4] ?? '' };
}

const full = (parts: number[], pre = ''): Version => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, pre];
const bump = (parts: number[], index: number): Version => {
  const next = [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
  next[index] = (next[index] as number) + 1;
  for (let i = index + 1; i < 3; i += 1) next[i] = 0;
  return [next[0] as number, next[1] as number, next[2] as number, ''];
};
const between = (low: Version, high: Version | undefined): Comparator => (v) =>
  compareVersions(v, low) >= 0 && (high === undefined || compareVersions(v, high) < 0);

function comparator(token: string): Comparator | undefined {
  const op = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(token);
  const kind = op?.[1] ?? '';
  const p = partial(op?.[2] ?? '');
  if (!p) return undefined;
  const { parts, pre } = p;
  const base = full(parts, pre);
  switch (kind) {
    case '>=':
      return (v) => compareVersions(v, base) >= 0;
    case '>':
      return parts.length < 3 ? (v) => compareVersions(v, bump(parts, Math.max(parts.length - 1, 0))) >= 0 : (v) => compareVersions(v, base) > 0;
    case '<=':
      return parts.length < 3 ? (v) => compareVersions(v, bump(parts, Math.max(parts.length - 1, 0))) < 0 : (v) => compareVersions(v, base) <= 0;
    case '<':
      return (v) => compareVersions(v, base) < 0;
    case '^': {
      const index = parts.length === 0 ? -1 : (parts.findIndex((n, i) => n !== 0 || i === parts.length - 1));
      if (index < 0) return () => true;
      return between(base, bump(parts, Math.min(index, 2)));
    }
    case '~':
      if (parts.length === 0) return () => true;
      return between(base, bump(parts, Math.min(parts.length === 1 ? 0 : 1, 2)));
    default:
      if (parts.length === 0) return () => true;
      if (parts.length === 3) return (v) => compareVersions(v, base) === 0;
      return between(base, bump(parts, parts.length - 1));
  }
}

/** Parses a range like `^1.2.0`, `>=1 <2`, `1.x || 2.0.0`; undefined when malformed. */
export function parseRange(range: string): ((version: string) => boolean) | undefined {
  const alternatives: Comparator[][] = [];
  for (const alternative of range.trim().split('||')) {
    const tokens = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    const comparators = tokens.length === 0 ? [() => true] : tokens.map(comparator);
    if (comparators.some((c) => c === undefined)) return undefined;
    alternatives.push(comparators as Comparator[]);
  }
  return (text) => {
    const v = parseVersion(text);
    return v !== undefined && alternatives.some((all) => all.every((c) => c(v)));
  };
}

/** Whether `version` satisfies `range`; false on malformed input. */
export function satisfies(version: string, range: string): boolean {
  return parseRange(range)?.(version) ?? false;
}
