/**
 * The read model of posts (docs/architecture.md, "One read model"), as Mastodon's
 * StatusCacheHydrator: a row version → what every reader shares (its `Post` and that Post's JSON
 * here; its client-API status hangs off the same Post, `mastodon/statusViews.ts`) → the reader's own
 * fields on top: their reaction (the shared rows' variant of the row for it) and their comment count
 * without the comments of people blocked either way (a recounted copy, itself shared).
 *
 * Shared rows are never changed, so each rendering is held by its row's (or Post's) identity
 * (`cache/renderings.ts`): a change is a new row and renders anew, and no key lists fields. A row
 * that is not shared (the cache off, a row read once) renders for its request alone.
 */
import type { Post } from '../../lib/types';
import type { CacheRegistry } from '../cache/registry';
import { jsonArray, keptText } from '../http/asciiJson';
import type { ImageInfos } from './imageInfos';
import { postJson } from './json';
import { photosOfRow, toPost } from './mappers';
import type { PostCache } from './postCache';
import type { PostListRow } from './repository';

/** Most recounted copies kept per post: a few readers' block sets give a few counts. */
const MAX_RECOUNTS = 8;

export function postViews(caches: CacheRegistry, imageInfos: ImageInfos, postCache: Pick<PostCache, 'shares'>) {
  const posts = caches.renderings<PostListRow, Post>({ name: 'post_views' });
  const json = caches.renderings<Post, string>({ name: 'post_json' });
  const recounts = caches.renderings<Post, Map<number, Post>>({ name: 'post_recounts' });

  /** Holds the post's JSON for as long as the post lives: a shared Post is never changed. */
  const shared = (post: Post) => {
    json.keep(post, keptText(postJson(post)));
    return post;
  };

  return {
    /** The rows' Posts, each made once per row version the cache shares. */
    async of(rows: PostListRow[]): Promise<Post[]> {
      const held = rows.map((row) => posts.get(row));
      if (!held.includes(undefined)) return held as Post[];
      // Every photo of an album (issue 71); a one-photo post's one media id, as before.
      const mediaIds = (row: PostListRow) =>
        row.album === null ? [row.media_id] : photosOfRow(row).map((photo) => photo.media_id);
      const infos = await imageInfos(rows.flatMap((row, i) => (held[i] ? [] : mediaIds(row))));
      return rows.map((row, i) => {
        if (held[i]) return held[i];
        const post = toPost(row, infos);
        // An image whose other variants are still being written is read again next time.
        const complete = mediaIds(row).every((id) => id === null || infos.get(id)?.srcset);
        if (postCache.shares(row) && complete) posts.keep(row, shared(post));
        return post;
      });
    },

    /**
     * The post as a reader with blocks sees it: its comment count without the blocked people's
     * comments. A shared post gets a shared copy per count: a page of older posts (which have
     * comments) would otherwise write their JSON again on every request (issue 68, item 26).
     */
    recounted(post: Post, commentsCount: number): Post {
      if (json.peek(post) === undefined) return { ...post, commentsCount };
      const byCount = recounts.of(post, () => new Map());
      const known = byCount.get(commentsCount);
      if (known) return known;
      const copy = shared({ ...post, commentsCount });
      if (byCount.size < MAX_RECOUNTS) byCount.set(commentsCount, copy);
      return copy;
    },

    /** The reply serializer (`replyAsciiJson`): the list's JSON, from the held JSON where there is some. */
    listText: (list: Post[]): string => jsonArray(list, (p) => json.peek(p) ?? postJson(p)),
  };
}

export type PostViews = ReturnType<typeof postViews>;
