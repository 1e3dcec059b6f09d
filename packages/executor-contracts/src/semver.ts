// Versions and ranges by npm's `semver` (its prerelease rule included), for the registry only: these
// helpers are internal to @sinew/executor-contracts (no longer exported).
import { compare, parse, satisfies, validRange, type SemVer } from 'semver';

/** Parses `major.minor.patch[-prerelease][+build]` (leading `v` allowed); undefined when malformed. */
export function parseVersion(text: string): SemVer | undefined {
  return parse(text.trim()) ?? undefined;
}

/** Orders two versions by npm's precedence: negative, zero or positive; a release outranks its prereleases. */
export function compareVersions(a: SemVer, b: SemVer): number {
  return compare(a, b);
}

/**
 * A matcher for a range like `^1.2.0`, `>=1 <2`, `1.x || 2.0.0`; undefined when malformed. A prerelease
 * matches only a comparator that names a prerelease of the same major.minor.patch (npm's rule).
 */
export function parseRange(range: string): ((version: string) => boolean) | undefined {
  const valid = validRange(range);
  return valid === null ? undefined : (version) => satisfies(version.trim(), valid);
}
