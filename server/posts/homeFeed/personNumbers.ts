/**
 * A small number for each person the home feed has met, the same for the feed index's creators and
 * the readers' follow lists: a follow list is then 4 bytes a followee (sorted numbers), not an
 * array of id strings, so every reader's list fits (docs/benchmarks/log/2026-12-04.md, "Follow lists as numbers").
 * Numbers are never taken back while the process runs: the map grows with the people met, at most
 * the users table (~100 B a person).
 */
export interface PersonNumbers {
  /** The person's number, given now if they have none. */
  numberOf(id: string): number;
  /** The person's number, or undefined when they have none (then no list here holds them). */
  known(id: string): number | undefined;
  /** The numbers of these people, ascending, each once. */
  listOf(ids: readonly string[]): Int32Array;
  /** The person a number was given to. */
  idOf(n: number): string;
  /** Numbers given so far (each is below it). */
  readonly size: number;
}

export function personNumbers(): PersonNumbers {
  const numbers = new Map<string, number>();
  /** Each number's person: the map's own key strings, so no more than a slot each. */
  const ids: string[] = [];
  function numberOf(id: string): number {
    let n = numbers.get(id);
    if (n === undefined) {
      n = numbers.size;
      // A copy: an id sliced from a longer string (a loaded chunk, a joined list) would keep it all alive.
      const copy = id.split('-').join('-');
      numbers.set(copy, n);
      ids.push(copy);
    }
    return n;
  }
  return {
    numberOf,
    known: (id) => numbers.get(id),
    idOf: (n) => ids[n],
    listOf(ids) {
      const list = new Int32Array(ids.length);
      for (let i = 0; i < ids.length; i += 1) list[i] = numberOf(ids[i]);
      list.sort();
      let kept = 0;
      for (let i = 0; i < list.length; i += 1) if (i === 0 || list[i] !== list[i - 1]) list[kept++] = list[i];
      return kept === list.length ? list : list.slice(0, kept);
    },
    get size() {
      return numbers.size;
    },
  };
}

/** Whether the ascending `list` holds `n` (a binary search). */
export function listHolds(list: Int32Array, n: number | undefined): boolean {
  if (n === undefined) return false;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid] < n) low = mid + 1;
    else high = mid;
  }
  return low < list.length && list[low] === n;
}
