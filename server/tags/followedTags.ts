/**
 * What the home feed needs of followed tags (issue 73), kept so that a home page costs no
 * statement per tag: each reader's followed tags (their keys), and each followed tag's newest
 * `HEAD_SIZE` post ids ("heads"), unfiltered as the tag's own list is (the reader's filter says
 * which are public and shown). A follow or unfollow forgets the reader's tags; a new post with the
 * tag makes its kept head be read again; an edit of any post's tags forgets every head (the event does
 * not say which tags); a deleted post's id stays until the head is read again and is skipped, as
 * the lists skip any id whose row is gone (`invalidation/table.ts`).
 */
import type { CacheRegistry } from '../cache/registry';
import type { TagsRepository } from './repository';

/** How many of a tag's newest posts the home feed merges: past them, followed tags add nothing. */
export const HEAD_SIZE = 1_000;
/** Most tags one person follows (409 `TooManyFollowedTags` past it). */
export const FOLLOWED_TAGS_MAX = 100;

export function followedTagsCache(
  caches: CacheRegistry,
  repo: Pick<TagsRepository, 'followedTagsOf' | 'newestIdsWithTag'>,
  ttlMs: number,
) {
  const followed = caches.keyed<string, readonly string[]>({ name: 'followed_tags', ttlMs, max: 10_000 });
  // A head is 1,000 ids (~50 KB as strings): a few hundred tags followed lately.
  const heads = caches.keyed<string, readonly string[]>({ name: 'tag_heads', ttlMs, max: 500 });

  const readFollowed = async (userId: string) => (await repo.followedTagsOf(userId)).map((r) => r.tag);
  const readHead = (tag: string) => repo.newestIdsWithTag(tag, HEAD_SIZE);

  return {
    /** The keys of the tags the reader follows. */
    async of(userId: string): Promise<readonly string[]> {
      return (await followed.get(userId, readFollowed)) ?? [];
    },
    /** The tag's newest post ids, newest first (at most `HEAD_SIZE`). */
    async head(tag: string): Promise<readonly string[]> {
      return (await heads.get(tag, readHead)) ?? [];
    },
    /**
     * Whether each reader follows any of these tags, as kept now: undefined when their tags are not
     * kept (a new post asks it of every kept home page).
     */
    followsAnyOf(tags: readonly string[]): (userId: string) => boolean | undefined {
      return (userId) => {
        if (tags.length === 0) return false;
        const mine = followed.peek(userId);
        return mine && mine.some((t) => tags.includes(t));
      };
    },
    /** The reader followed or unfollowed a tag. */
    forget(userId: string): void {
      followed.forget(userId);
    },
    /**
     * A new post carries these tags: their kept heads are read again when next asked (one range
     * scan; a head grown in place would outlive its time).
     */
    added(tags: readonly string[]): void {
      for (const tag of tags) heads.forget(tag);
    },
    /** Some post's tags changed: which tags, the event does not say. */
    tagsChanged(): void {
      heads.forgetAll();
    },
  };
}

export type FollowedTagsCache = ReturnType<typeof followedTagsCache>;
