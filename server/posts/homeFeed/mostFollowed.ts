/**
 * People followed by those a reader follows, the most followed first (Explore's suggestions, issue
 * 73), counted in memory over the follow lists the home feed keeps as person numbers
 * (`followeeCache.ts`). The database's grouping of the same follows cost 20 ms a
 * reader on D1 (200 followees following 200 each), the most of a 2,000-reader mix; these 40,000
 * counts are a fraction of a millisecond (docs/benchmarks/log/2026-12-07.md, "Suggestions counted
 * in memory").
 */

/**
 * The `want` people most often in `lists` (each list a person's followees, ascending numbers below
 * `size`), those `leftOut` skipped, by how many lists hold them, then by id, newest first (ids are
 * UUIDv7), as the query before them ordered them.
 */
export function mostFollowed(
  lists: Iterable<Int32Array>,
  size: number,
  leftOut: (n: number) => boolean,
  idOf: (n: number) => string,
  want: number,
): string[] {
  const counts = new Uint16Array(size);
  const touched: number[] = [];
  for (const list of lists)
    for (let i = 0; i < list.length; i++) {
      const n = list[i];
      if (n < size && counts[n]++ === 0) touched.push(n);
    }
  const candidates = touched.filter((n) => !leftOut(n));
  // The count the last one wanted has: found from how many have each count, not by sorting them all.
  let most = 0;
  for (const n of candidates) if (counts[n] > most) most = counts[n];
  const withCount = new Int32Array(most + 1);
  for (const n of candidates) withCount[counts[n]]++;
  let least = most;
  for (let taken = withCount[most]; least > 1 && taken < want;) taken += withCount[--least];
  const byIdNewest = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  const chosen = candidates
    .filter((n) => counts[n] >= least)
    .map((n) => ({ id: idOf(n), count: counts[n] }))
    .sort((a, b) => b.count - a.count || byIdNewest(a.id, b.id));
  return chosen.slice(0, want).map((c) => c.id);
}
