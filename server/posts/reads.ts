/** Reading posts: the lists (home, everyone, a tag, a profile) and one post, through the shared rows. */
import { normalizeTag, tagKey, usernameKey } from '../../lib/validation';
import { TEXTS } from '../../lib/texts';
import type { PersonResult, Post } from '../../lib/types';
import { type ListPage, pageKey } from '../cache/sharedRows';
import type { Transactional } from '../db/repository';
import { InvalidError, NotFoundError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { HiddenAuthorsCache } from '../safety/hiddenAuthors';
import type { CommentsByPersonCache } from './commentsByPerson';
import type { SafetyRepository } from '../safety/repository';
import type { UsersRepository } from '../users/repository';
import {
  NO_VIEWER,
  type ReaderOf,
  contentShows,
  feedShows,
  isPubliclyVisible,
  postNotFound,
  profileShows,
} from './access';
import { audienceAdmits } from '../domain/audience';
import type { HomeFeed } from './homeFeed';
import { EVERYONE_LIST, type PostCache, creatorListKey, homeListKey, tagListKey } from './postCache';
import type { PostViews } from './postViews';
import type { PostListRow, PostOrigin, PostsRepository } from './repository';
import { toPersonResult } from '../users/personRows';

/** Nobody signed in, as a reader. */
const NOBODY = { id: NO_VIEWER, username: '' };

/** Someone who signed a fetch from elsewhere, as kept here (`fetchedRow`). */
export type Signer = Pick<AuthUser, 'id' | 'username'>;

/** Most tags one tag search takes. */
export const SEARCH_TAGS_MAX = 10;

export interface PostReadsDeps {
  data: Transactional<{ posts: PostsRepository; users: UsersRepository; safety: SafetyRepository }>;
  homeFeed: Pick<HomeFeed, 'page' | 'ids' | 'shows'>;
  views: PostViews;
  postCache: Pick<PostCache, 'rows' | 'page'>;
  hiddenAuthors: Pick<HiddenAuthorsCache, 'get'>;
  readerOf: ReaderOf;
  commentsByPerson: Pick<CommentsByPersonCache, 'countsOn'>;
  /** Which of these posts the viewer saved (issue 73; `saves/savedIds.ts`); absent: none. */
  savedAmong?: (viewerId: string, postIds: string[]) => Promise<ReadonlySet<string>>;
  /** The tags each reader follows and each tag's newest post ids, kept (issue 73; `tags/followedTags.ts`); absent: none. */
  followedTags?: FollowedTagsReads;
}

/** What the home feed reads of followed tags (`tags/followedTags.ts`), by shape. */
export interface FollowedTagsReads {
  /** The keys (`tagKey`) of the tags the reader follows. */
  of(userId: string): Promise<readonly string[]>;
  /** The tag's newest post ids, newest first, unfiltered. */
  head(tag: string): Promise<readonly string[]>;
}

/** The first index of `ids` (newest first) below `cursor`. */
function belowCursor(ids: readonly string[], cursor: string | null): number {
  if (cursor === null) return 0;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid] >= cursor) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Newest-first id lists merged into one, each id once, at most `limit` (ids are UUIDv7: their
 * order is their time's).
 */
export function mergeNewest(lists: readonly (readonly string[])[], limit: number): string[] {
  const all = new Set<string>();
  for (const list of lists) for (let i = 0; i < list.length && i < limit; i++) all.add(list[i]);
  return [...all].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, limit);
}

/** The first of the post's tags (as written) whose key is among `followed`; null when none is. */
export function followedTagOf(tags: readonly string[], followed: readonly string[]): string | null {
  if (followed.length === 0) return null;
  for (const tag of tags) if (followed.includes(tagKey(tag))) return tag;
  return null;
}

export function postReads({
  data,
  homeFeed,
  views,
  postCache,
  hiddenAuthors,
  readerOf,
  commentsByPerson,
  savedAmong,
  followedTags,
}: PostReadsDeps) {
  const { posts } = data;

  /**
   * The posts as the viewer counts their comments: those by people blocked either way are not in the
   * viewer's list, so they are not in its count either (issue 35). Only for a viewer with blocks, from
   * the kept counts of the people blocked (the database's for a person with too many to keep); the
   * shared posts are copied, never changed.
   */
  async function countedFor(viewerId: string, shown: Post[]): Promise<Post[]> {
    const commented = shown.filter((p) => p.commentsCount > 0).map((p) => p._id);
    if (commented.length === 0) return shown;
    const { blocked } = await hiddenAuthors.get(viewerId);
    if (blocked.size === 0) return shown;
    const hidden =
      (await commentsByPerson.countsOn(blocked, commented)) ?? (await posts.blockedCommentCounts(viewerId, commented));
    if (hidden.size === 0) return shown;
    return shown.map((p) => (hidden.has(p._id) ? views.recounted(p, p.commentsCount - hidden.get(p._id)!) : p));
  }

  /**
   * `savedByMe` on the posts the viewer saved: a copy of the shared post, for this reader alone
   * (a saved post is rare in a page; the others keep their shared JSON).
   */
  async function markedFor(viewerId: string, shown: Post[]): Promise<Post[]> {
    if (!savedAmong || viewerId === NO_VIEWER || shown.length === 0) return shown;
    const saved = await savedAmong(
      viewerId,
      shown.map((p) => p._id),
    );
    return saved.size === 0 ? shown : shown.map((p) => (saved.has(p._id) ? { ...p, savedByMe: true } : p));
  }

  /** Rows to the viewer's posts. */
  const postsFor = async (viewerId: string, rows: PostListRow[]) =>
    markedFor(viewerId, await countedFor(viewerId, await views.of(rows)));

  /** A cached list page for the reader, or (null) the database's own filtered query. */
  async function cachedPage(
    user: AuthUser,
    page: Page,
    list: Pick<ListPage<PostListRow>, 'ids' | 'shows'> & { key: string },
    query: () => Promise<PostListRow[]>,
  ): Promise<PostListRow[]> {
    const rows = await postCache.page(user.id, {
      key: pageKey(list.key, page.cursor),
      cursor: page.cursor,
      want: page.limit + 1,
      ids: list.ids,
      shows: list.shows,
    });
    return rows ?? query();
  }

  async function load(viewer: Pick<AuthUser, 'id' | 'username'>, id: string): Promise<Post> {
    const [row] = await postCache.rows(viewer.id, [id]);
    if (!row || !contentShows(row, await readerOf(viewer, 'any'))) throw postNotFound();
    return (await postsFor(viewer.id, [row]))[0];
  }

  return {
    async feed(user: AuthUser, feed: 'following' | 'all', page: Page): Promise<Post[]> {
      if (feed === 'all') {
        const reader = await readerOf(user, 'public');
        const everyone = {
          key: EVERYONE_LIST,
          ids: posts.everyoneIds,
          shows: (row: PostListRow) => feedShows(row, reader, 'public'),
        };
        return postsFor(
          user.id,
          await cachedPage(user, page, everyone, () => posts.allPosts(user.id, page.cursor, page.limit + 1)),
        );
      }
      const reader = await readerOf(user, 'any');
      const tags = (await followedTags?.of(user.id)) ?? [];
      // A post is in the home feed by its creator (the reader, or someone they follow) or, when
      // public, by a tag they follow (issue 73): each once, whichever brought it.
      const byPerson = (row: PostListRow) => reader.follows(row.creator_id) || row.creator_id === user.id;
      const tagOf = (row: PostListRow) => followedTagOf(JSON.parse(row.tags) as string[], tags);
      const home = {
        key: homeListKey(user.id),
        ids: async (after: string | null, count: number) => {
          const own = await homeFeed.ids(user.id, after, count);
          if (own === null || tags.length === 0) return own;
          const heads = await Promise.all(tags.map((tag) => followedTags!.head(tag)));
          return mergeNewest([own, ...heads.map((head) => head.slice(belowCursor(head, after)))], count);
        },
        shows: (row: PostListRow) =>
          byPerson(row) ? feedShows(row, reader, 'home') : tagOf(row) !== null && feedShows(row, reader, 'public'),
      };
      const admits = (row: PostListRow) => audienceAdmits(row, reader, 'home');
      const rows = await cachedPage(user, page, home, async () => {
        const followed = await homeFeed.page(user.id, page.cursor, page.limit + 1, admits);
        if (tags.length === 0) return followed;
        // The database's own: the public posts with any of the tags, filtered for the reader.
        const tagged = await posts.taggedPosts(user.id, [...tags], page.cursor, page.limit + 1);
        const byId = new Map([...followed, ...tagged].map((row) => [row.id, row]));
        const newest = mergeNewest([followed.map((row) => row.id), tagged.map((row) => row.id)], page.limit + 1);
        return newest.map((id) => byId.get(id)!);
      });
      const shown = await postsFor(user.id, rows);
      if (tags.length === 0) return shown;
      // Brought by a tag alone: the reader is told which (`reason`), on a copy of the shared post.
      return shown.map((p, i) => {
        if (byPerson(rows[i])) return p;
        const tag = followedTagOf(p.tags, tags);
        return tag === null ? p : { ...p, reason: { tag } };
      });
    },

    /** `origin`: the client API's `local` and `remote`; the pages' tag lists show both. */
    async tagged(user: AuthUser, rawTags: string, page: Page, origin: PostOrigin = 'any'): Promise<Post[]> {
      const tags = [
        ...new Set(
          rawTags
            .split(',')
            .map((t) => tagKey(normalizeTag(t)))
            .filter(Boolean),
        ),
      ];
      if (tags.length === 0) throw new InvalidError(TEXTS.tagRequired, 'InvalidTags');
      if (tags.length > SEARCH_TAGS_MAX)
        throw new InvalidError(`Search at most ${SEARCH_TAGS_MAX} tags at once`, 'InvalidTags');
      const query = () => posts.taggedPosts(user.id, tags, page.cursor, page.limit + 1, origin);
      if (tags.length > 1 || origin !== 'any') return postsFor(user.id, await query());
      const [tag] = tags;
      const reader = await readerOf(user, 'public');
      const withTag = {
        key: tagListKey(tag),
        ids: (after: string | null, count: number) => posts.idsWithTag(tag, after, count),
        shows: (row: PostListRow) => feedShows(row, reader, 'public'),
      };
      return postsFor(user.id, await cachedPage(user, page, withTag, query));
    },

    async byUser(user: AuthUser, username: string, page: Page): Promise<Post[]> {
      const reader = await readerOf(user, 'any');
      const byCreator = {
        key: creatorListKey(usernameKey(username)),
        ids: (after: string | null, count: number) => posts.idsByCreator(username, after, count),
        // One creator: hidden from the reader, all their posts are (the database then says why).
        shows: (row: PostListRow) => profileShows(row, reader),
      };
      const rows = await cachedPage(user, page, byCreator, () =>
        posts.postsByCreator(user.id, username, page.cursor, page.limit + 1),
      );
      // No rows: a user without posts (below the cursor) gets an empty page, an unknown one a 404,
      // as does one the viewer may not see (suspended, or blocking the viewer: the blocker sees []).
      if (rows.length === 0) {
        const creator = await data.users.findUserByUsername(username);
        if (!creator || (creator.id !== user.id && creator.suspended_at !== null))
          throw new NotFoundError('User not found', 'UserNotFound');
        if ((await data.safety.relationsBetween(user.id, creator.id)).blocksMe)
          throw new NotFoundError('User not found', 'UserNotFound');
      }
      return postsFor(user.id, rows);
    },

    /** One post as the viewer may see it; a 404 otherwise (also for an id that is not a UUID). */
    async one(user: AuthUser, id: string): Promise<Post> {
      if (!isUuid(id)) throw postNotFound();
      return load(user, id);
    },

    /**
     * The post if the viewer's list would show it now (home: theirs, their followees' and their
     * followed tags' public ones; everyone;
     * a tag's), by the lists' own rules (blocks, mutes, suspensions); else null. For live streams.
     */
    async inList(user: AuthUser, list: { kind: 'home' | 'everyone' } | { kind: 'tag'; tag: string }, id: string) {
      const [row] = await postCache.rows(user.id, [id]);
      const home = list.kind === 'home';
      if (!row || !feedShows(row, await readerOf(user, home ? 'any' : 'public'), home ? 'home' : 'public')) return null;
      if (list.kind === 'home' && !(await homeFeed.shows(user.id, row.creator_id))) {
        // Not by a followed person: in the home feed only as a public post with a followed tag (issue 73).
        const tag = followedTagOf(JSON.parse(row.tags) as string[], (await followedTags?.of(user.id)) ?? []);
        if (tag === null || !feedShows(row, await readerOf(user, 'public'), 'public')) return null;
        return { ...(await postsFor(user.id, [row]))[0], reason: { tag } };
      }
      if (
        list.kind === 'tag' &&
        !(JSON.parse(row.tags) as string[]).some((t) => tagKey(t) === tagKey(normalizeTag(list.tag)))
      )
        return null;
      return (await postsFor(user.id, [row]))[0];
    },

    /** Who likes a post the viewer may see (people they may see), by the liker's id, newest account first. */
    async likers(user: AuthUser, id: string, page: Page): Promise<{ id: string; username: string }[]> {
      if (!isUuid(id)) throw postNotFound();
      await load(user, id);
      return posts.likersOf(user.id, id, page.cursor, page.limit + 1);
    },

    /** The web's likers list: newest like first, with whether the viewer follows each (routes.ts). */
    async likersList(user: AuthUser, id: string, page: Page): Promise<PersonResult[]> {
      if (!isUuid(id)) throw postNotFound();
      await load(user, id);
      return (await posts.likersByNewest(user.id, id, page.cursor, page.limit + 1)).map(toPersonResult);
    },

    /** Whether the viewer's lists may show the author's posts at all (a deleted post's streams). */
    async showsAuthor(user: AuthUser, authorId: string): Promise<boolean> {
      const hidden = await hiddenAuthors.get(user.id);
      return !hidden.blocked.has(authorId) && !hidden.muted.has(authorId);
    },

    /**
     * One post as anyone may see it (a signed-out visitor, a link unfurler): null when it is not
     * there or not public (`isPubliclyVisible`). No viewer: no reaction of theirs, no blocks.
     */
    async publicOne(id: string): Promise<Post | null> {
      if (!isUuid(id)) return null;
      const [row] = await posts.postsByIds(NO_VIEWER, [id], false);
      if (!row || !isPubliclyVisible(row)) return null;
      return (await views.of([row]))[0];
    },

    /**
     * The shared row of a post that a fetch from elsewhere may have, or null: what its Note renders
     * (once per row version, `federation.ts`). Anyone may have a public or unlisted post; one for
     * followers or the people named only a fetch signed by someone it admits (issue 70): `signer`,
     * asked only then (it checks the signature), is that person as kept here, or null.
     */
    async fetchedRow(id: string, signer: () => Promise<Signer | null>): Promise<PostListRow | null> {
      if (!isUuid(id)) return null;
      const [row] = await postCache.rows(NO_VIEWER, [id]);
      if (!row) return null;
      if (contentShows(row, await readerOf(NOBODY, 'any'))) return row;
      if (row.audience !== 'followers' && row.audience !== 'mentioned') return null;
      const person = await signer();
      return person && contentShows(row, await readerOf(person, 'any')) ? row : null;
    },

    /** The posts of `ids` the viewer may see now, in their order: a list kept elsewhere (saved posts). */
    async visibleAmong(user: Pick<AuthUser, 'id' | 'username'>, ids: string[]): Promise<Post[]> {
      const rows = await postCache.rows(user.id, ids);
      const reader = await readerOf(user, 'any');
      return postsFor(
        user.id,
        rows.filter((row) => contentShows(row, reader)),
      );
    },

    /**
     * The first `limit` of the posts (ids, in their order) the viewer may see in a public list
     * (Explore, issue 73): as `visibleAmong`, muted and silenced people left out too, as from
     * everyone's list. Only those are made into posts.
     */
    async publicAmong(user: Pick<AuthUser, 'id' | 'username'>, ids: string[], limit = ids.length): Promise<Post[]> {
      const rows = await postCache.rows(user.id, ids);
      const reader = await readerOf(user, 'public');
      return postsFor(user.id, rows.filter((row) => feedShows(row, reader, 'public')).slice(0, limit));
    },

    /** The post as `viewerId` reads it now (what a write answers). */
    load,
  };
}

export type PostReads = ReturnType<typeof postReads>;
