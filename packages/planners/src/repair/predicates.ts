import type { Vec3 } from '../contract.js';

/** A precondition predicate as declared by capabilities (`has_item:stick:2`, `near_block:crafting_table`, `within_reach:1,64,3`). */
export type Predicate =
  | { readonly kind: 'has_item'; readonly item: string; readonly count: number }
  | { readonly kind: 'near_block'; readonly block: string }
  | { readonly kind: 'within_reach'; readonly position: Vec3 };

export type PredicateParse = { readonly ok: true; readonly predicate: Predicate } | { readonly ok: false; readonly reason: string };

const NAME = /^[a-z0-9_]+$/;

/** Parses one predicate string; unknown kinds and malformed fields are reported, never thrown. */
export function parsePredicate(text: string): PredicateParse {
  const [kind, ...rest] = text.split(':');
  if (kind === 'has_item') {
    const [item, countText] = rest;
    const count = countText === undefined ? 1 : Number(countText);
    if (!item || !NAME.test(item) || !Number.isInteger(count) || count < 1 || rest.length > 2) {
      return { ok: false, reason: `"${text}": expected has_item:<item>[:<count ≥ 1>]` };
    }
    return { ok: true, predicate: { kind, item, count } };
  }
  if (kind === 'near_block') {
    const [block] = rest;
    if (!block || !NAME.test(block) || rest.length !== 1) return { ok: false, reason: `"${text}": expected near_block:<block>` };
    return { ok: true, predicate: { kind, block } };
  }
  if (kind === 'within_reach') {
    const coords = (rest[0] ?? '').split(',').map(Number);
    if (rest.length !== 1 || coords.length !== 3 || coords.some((n) => !Number.isFinite(n))) {
      return { ok: false, reason: `"${text}": expected within_reach:<x>,<y>,<z>` };
    }
    const [x, y, z] = coords as [number, number, number];
    return { ok: true, predicate: { kind, position: { x, y, z } } };
  }
  return { ok: false, reason: `"${text}": unknown predicate kind "${kind ?? ''}" (know has_item, near_block, within_reach)` };
}

/** The canonical string of a predicate. */
export function formatPredicate(predicate: Predicate): string {
  switch (predicate.kind) {
    case 'has_item':
      return `has_item:${predicate.item}:${predicate.count}`;
    case 'near_block':
      return `near_block:${predicate.block}`;
    case 'within_reach':
      return `within_reach:${predicate.position.x},${predicate.position.y},${predicate.position.z}`;
  }
}
