/** Sets `key` in a map that keeps at most `max` entries: the oldest written goes first (Map keeps insertion order). */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value!);
  map.set(key, value);
}
