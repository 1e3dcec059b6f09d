// Edit-distance suggestions for unknown verbs and argument keys, shared by checkStep (V1, V2) and the verb gate.

/** Up to three known names (verbs, argument keys) within a small edit distance of `name`. */
export function closestNames(name: string, names: readonly string[]): string[] {
  const probe = name.slice(0, 64);
  const limit = Math.max(2, Math.floor(probe.length / 3));
  return names
    .map((candidate) => ({ candidate, distance: editDistance(probe, candidate) }))
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
