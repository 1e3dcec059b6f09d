/** Sets key → value as the newest entry and drops the oldest entries past `cap` (a Map keeps insertion order). */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= cap) break;
    map.delete(oldest);
  }
}
