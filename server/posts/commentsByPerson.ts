/**
 * How many comments a person wrote on each post, kept in memory for the people readers block
 * (either way): a reader with blocks sees a post's comment count without those people's comments
 * (issue 35), and asking the database for it on every page cost a statement per page (a third of
 * the home feed's time for a reader with 50 blocks: docs/benchmarks/log/2026-11-26.md, "Blocked comment counts"). Read per person, in one
 * statement for a page's missing people; forgotten when they comment, a comment of theirs goes or
 * their account does (`invalidation/table.ts`); `ttlMs` bounds changes no event carried.
 */
import type { CountedCache } from '../cache/counts';
import type { CacheRegistry } from '../cache/registry';

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
}

/** A person's comments by post; `null` when they commented on more posts than one entry keeps. */
type ByPost = Map<string, number> | null;

export function commentsByPersonCache(
  caches: CacheRegistry,
  load: LoadCommentCounts,
  {
    ttlMs,
    // A person past this many posts is counted by the database (a bot's thousands stay out of memory).
    maxPostsPerPerson = 1_000,
    // About 100 B a pair: ~20 MB at most, for the people most often read lately.
    maxPairs = 200_000,
  }: { ttlMs: number; maxPostsPerPerson?: number; maxPairs?: number },
): CommentsByPersonCache {
  const people = caches.keyed<string, ByPost>({
    name: 'comments_by_person',
    ttlMs,
    max: maxPairs,
    weigh: (byPost) => byPost?.size ?? 0,
    async load(ids) {
      const read = new Map<string, Map<string, number>>(ids.map((id) => [id, new Map()]));
      for (const row of await load(ids)) read.get(row.user_id)?.set(row.post_id, Number(row.comments));
      return new Map([...read].map(([id, byPost]) => [id, byPost.size > maxPostsPerPerson ? null : byPost]));
    },
  });

  return {
    counts: people.counts,
    size: people.size,
    async countsOn(blocked, postIds) {
      const result = new Map<string, number>();
      if (blocked.size === 0 || postIds.length === 0) return result;
      /** Adds a person's comments on the posts; false when they are too many to keep. */
      const add = (byPost: ByPost): boolean => {
        if (byPost === null) return false;
        if (byPost.size > 0)
          for (const postId of postIds) {
            const n = byPost.get(postId);
            if (n) result.set(postId, (result.get(postId) ?? 0) + n);
          }
        return true;
      };
      // The kept people looked at one by one: a reader's 50 blocked people through `getMany` made a
      // Map of them on every page, a third of what a page of Explore allocated.
      let missing: string[] | undefined;
      let tooMany = false;
      // `forEach`, not `for…of`: an async function's loop over a Set made an iterator result per person.
      blocked.forEach((id) => {
        const byPost = people.peek(id);
        if (byPost === undefined) (missing ??= []).push(id);
        else if (!tooMany && !add(byPost)) tooMany = true;
      });
      if (tooMany) return null;
      people.count(true, blocked.size - (missing?.length ?? 0));
      if (missing) for (const byPost of (await people.getMany(missing)).values()) if (!add(byPost)) return null;
      return result;
    },
    forget: (personId) => people.forget(personId),
  };
}
