/**
 * Explore for one reader (issue 73): the kept trends (`trends.ts`) filtered as a public list is for
 * them — blocks either way, mutes, suspensions, silenced people they do not follow, deleted posts
 * (`posts/access.ts` `feedShows`) — and people to follow: those followed by the people they follow,
 * else (they follow nobody, or nobody is found) the window's recent authors.
 */
import type { Explore, PersonResult, Post, TrendingTag } from '../../lib/types';
import type { AuthUser } from '../domain/types';
import { NO_VIEWER } from '../posts/access';
import type { PostReads } from '../posts/reads';
import type { HiddenAuthorsCache } from '../safety/hiddenAuthors';
import type { AuthorCache } from '../users/authorCache';
import type { AuthorFacts } from '../users/mappers';
import type { ExploreRepository } from './repository';
import type { TagDay } from './scores';
import type { KeptTrends } from './trends';

/** Shown of each list. */
export const EXPLORE_POSTS = 20;
export const EXPLORE_TAGS = 10;
export const EXPLORE_PEOPLE = 10;
/** The followees whose follows suggest people: a bound on the query for someone who follows thousands. */
const FOLLOWEES_ASKED = 500;

export interface ExploreServiceDeps {
  trends: Pick<KeptTrends, 'current'>;
  repo: Pick<ExploreRepository, 'friendsOfFriends' | 'followsAnyone'>;
  posts: Pick<PostReads, 'publicAmong'>;
  hiddenAuthors: Pick<HiddenAuthorsCache, 'get'>;
  authors: Pick<AuthorCache, 'named'>;
  /** Whom the reader follows, from memory (`homeFeed.showsOf`). */
  followsOf: (readerId: string) => Promise<(userId: string) => boolean>;
}

/** A reader: someone signed in, or nobody. */
type Reader = Pick<AuthUser, 'id' | 'username'> | null;
const NOBODY = { id: NO_VIEWER, username: '' };

/** People to follow, and where they come from (the client API names it, as Mastodon's `sources`). */
export interface Suggestions {
  source: 'friendsOfFriends' | 'recentlyActive';
  people: AuthorFacts[];
}

/** A suggested person as the web's people lists show one: they are not followed (else not suggested). */
const toPersonResult = (f: AuthorFacts): PersonResult => ({
  _id: f._id,
  username: f.username,
  avatar: f.avatar,
  description: f.description,
  followedByMe: false,
});

export function exploreService({ trends, repo, posts, hiddenAuthors, authors, followsOf }: ExploreServiceDeps) {
  /** The trending posts the reader may see, highest first, `offset` of them skipped. */
  async function trendingPosts(reader: Reader, limit: number, offset = 0): Promise<Post[]> {
    const ids = (await trends.current()).posts.map((p) => p.id);
    const shown = await posts.publicAmong(reader ?? NOBODY, ids);
    const byId = new Map(shown.map((p) => [p._id, p]));
    return ids.flatMap((id) => byId.get(id) ?? []).slice(offset, offset + limit);
  }

  async function trendingTags(limit: number, offset = 0): Promise<(TrendingTag & { history: TagDay[] })[]> {
    const { tags } = await trends.current();
    return tags
      .slice(offset, offset + limit)
      .map(({ tag, people, posts: count, history }) => ({ tag, people, posts: count, history }));
  }

  /**
   * People to follow: not the reader, not followed by them, not hidden from them either way; and
   * where they come from: followed by those the reader follows, else the recently active.
   */
  async function suggestions(reader: Reader, limit: number): Promise<Suggestions> {
    const hidden = reader ? await hiddenAuthors.get(reader.id) : null;
    const follows = reader && (await repo.followsAnyone(reader.id));
    const friends = follows ? await repo.friendsOfFriends(reader.id, FOLLOWEES_ASKED, limit * 2) : [];
    // Someone who follows nobody (or whose follows follow nobody new): the recently active.
    const candidates = friends.length > 0 ? friends : (await trends.current()).active;
    const followed = follows && friends.length === 0 ? await followsOf(reader.id) : () => false;
    const open = candidates.filter(
      (c) => c.id !== reader?.id && !followed(c.id) && !hidden?.blocked.has(c.id) && !hidden?.muted.has(c.id),
    );
    const facts = await authors.named(open.map((c) => c.key));
    const found: AuthorFacts[] = [];
    for (const c of open) {
      const f = facts.get(c.key);
      // Silenced people are shown to their followers alone, and followed people are not suggested.
      if (!f || f.silenced) continue;
      found.push(f);
      if (found.length >= limit) break;
    }
    return { source: friends.length > 0 ? 'friendsOfFriends' : 'recentlyActive', people: found };
  }

  return {
    trendingPosts,
    trendingTags,
    suggestions,
    /** The page's whole answer. */
    async explore(reader: Reader): Promise<Explore> {
      const [p, t, s] = await Promise.all([
        trendingPosts(reader, EXPLORE_POSTS),
        trendingTags(EXPLORE_TAGS),
        suggestions(reader, EXPLORE_PEOPLE),
      ]);
      return {
        posts: p,
        tags: t.map(({ tag, people: n, posts: count }) => ({ tag, people: n, posts: count })),
        people: s.people.map(toPersonResult),
      };
    },
  };
}

export type ExploreService = ReturnType<typeof exploreService>;
