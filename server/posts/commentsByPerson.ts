/**
 * How many comments a person wrote on each post, kept in memory for the people readers block
 * (either way): a reader with blocks sees a post's comment count without those people's comments
 * (issue 35), and asking the database for it on every page cost a statement per page (a third of
 * the home feed's time for a reader with 50 blocks: docs/benchmarks/log/2026-11-26.md, "Blocked comment counts"). Read per person, in one
 * statement for a page's missing people; forgotten when they comment, a comment of theirs goes or
 * their account does (`cache/invalidation.ts`); `ttlMs` bounds changes no event carried.
 */
import { type CountedCache, cacheCounts } from '../cache/counts';
import { expiresAt } from '../cache/expiry';

/** (person, post, comments) rows for these people; people without comments have none. */
export type LoadCommentCounts = (
  personIds: string[],
) => Promise<{ user_id: string; post_id: string; comments: number | string }[]>;

export interface CommentsByPersonCache extends CountedCache {
  /**
   * Per post of `postIds`, how many comments `people` wrote on it (posts without any left out);
   * null when one of them commented on too many posts to keep (the database then counts).
   */
  countsOn(people: ReadonlySet<string>, postIds: readonly string[]): Promise<Map<string, number> | null>;
  /** The person commented, a comment of theirs went, or their account did. */
  forget(personId: string): void;
  /** Everyone (`cache/outsideWrites.ts`). */
  forgetAll(): void;
}

/** A person's comments by post; `null` when they commented on more posts than one entry keeps. */
interface Entry {
  byPost: Map<string, number> | null;
  until: number;
}

export function commentsByPersonCache(
  load: LoadCommentCounts,
  {
    ttlMs,
    // A person past this many posts is counted by the database (a bot's thousands stay out of memory).
    maxPostsPerPerson = 1_000,
    // About 100 B a pair: ~20 MB at most, for the people most often read lately.
    maxPairs = 200_000,
  }: { ttlMs: number; maxPostsPerPerson?: number; maxPairs?: number },
): CommentsByPersonCache {
  const people = new Map<string, Entry>();
  const counts = cacheCounts();
  let heldPairs = 0;
  let forgets = 0;

  const sizeOf = (entry: Entry | undefined) => entry?.byPost?.size ?? 0;
  function keep(personId: string, entry: Entry): void {
    heldPairs += sizeOf(entry) - sizeOf(people.get(personId));
    people.delete(personId);
    people.set(personId, entry);
    for (const [oldest, old] of people) {
      if (heldPairs <= maxPairs || oldest === personId) break;
      heldPairs -= sizeOf(old);
      people.delete(oldest);
      counts.evictions++;
    }
  }
  function drop(personId: string): void {
    heldPairs -= sizeOf(people.get(personId));
    people.delete(personId);
  }

  /** The entries of `ids`, reading the missing ones in one statement. */
  async function entriesOf(ids: Iterable<string>, now: number): Promise<Entry[]> {
    const found: Entry[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const entry = people.get(id);
      if (entry && entry.until > now) found.push(entry);
      else missing.push(id);
    }
    counts.hits += found.length;
    counts.misses += missing.length;
    if (missing.length === 0) return found;
    const seen = forgets;
    const read = new Map<string, Map<string, number>>(missing.map((id) => [id, new Map()]));
    for (const row of await load(missing)) read.get(row.user_id)?.set(row.post_id, Number(row.comments));
    // Read together, read again together.
    const until = expiresAt(now, ttlMs);
    for (const [id, byPost] of read) {
      const entry = { byPost: byPost.size > maxPostsPerPerson ? null : byPost, until };
      // A read that started before a change does not keep what it read.
      if (seen === forgets) keep(id, entry);
      found.push(entry);
    }
    return found;
  }

  return {
    counts,
    size: () => people.size,
    async countsOn(blocked, postIds) {
      const result = new Map<string, number>();
      if (blocked.size === 0 || postIds.length === 0) return result;
      for (const { byPost } of await entriesOf(blocked, Date.now())) {
        if (byPost === null) return null;
        if (byPost.size === 0) continue;
        for (const postId of postIds) {
          const n = byPost.get(postId);
          if (n) result.set(postId, (result.get(postId) ?? 0) + n);
        }
      }
      return result;
    },
    forget(personId) {
      forgets++;
      drop(personId);
    },
    forgetAll() {
      forgets++;
      people.clear();
      heldPairs = 0;
    },
  };
}
