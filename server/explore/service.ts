/**
 * Explore for one reader (issue 73): the kept trends (`trends.ts`) filtered as a public list is for
 * them — blocks either way, mutes, suspensions, silenced people they do not follow, deleted posts
 * (`posts/access.ts` `feedShows`) — and people to follow: those followed by the people they follow,
 * else (they follow nobody, or nobody is found) the window's recent authors.
 */
import type { Explore, PersonResult, Post, TrendingTag } from '../../lib/types';
import type { CacheRegistry } from '../cache/registry';
import type { AuthUser, Page } from '../domain/types';
import { PAGE_LIMIT_DEFAULT } from '../../lib/limits';
import { NO_VIEWER } from '../posts/access';
import type { PostReads } from '../posts/reads';
import type { HiddenAuthorsCache } from '../safety/hiddenAuthors';
import type { AuthorCache } from '../users/authorCache';
import type { AuthorFacts } from '../users/mappers';
import type { ExploreRepository } from './repository';
import type { TagDay } from './scores';
import type { KeptTrends, Trends } from './trends';

/** Shown of each list: the posts a page as the feeds' (more in pages of `/api/explore/posts`). */
export const EXPLORE_POSTS = PAGE_LIMIT_DEFAULT;
export const EXPLORE_TAGS = 10;
export const EXPLORE_PEOPLE = 10;
/** The followees whose follows suggest people: a bound on the counting for someone who follows thousands. */
const FOLLOWEES_ASKED = 500;
/** Kept of each reader's candidates: enough left once their later follows, blocks and mutes are taken out. */
const CANDIDATES_KEPT = 100;
/** Looked at beyond what is still wanted, at a time: most trending posts and candidates are shown. */
const LOOKED_BEYOND = 4;
/** Readers whose candidates are kept at once. */
const SUGGESTIONS_KEPT_MAX = 10_000;

/** Someone who might be suggested: their id and lower-cased username. */
interface Candidate {
  id: string;
  key: string;
}

export interface ExploreServiceDeps {
  trends: Pick<KeptTrends, 'current'>;
  repo: Pick<ExploreRepository, 'suggestable'>;
  posts: Pick<PostReads, 'publicAmong'>;
  hiddenAuthors: Pick<HiddenAuthorsCache, 'get'>;
  authors: Pick<AuthorCache, 'people'>;
  caches: CacheRegistry;
  /** How long a reader's candidates are kept: the trends' refresh. */
  refreshMs: number;
  /** Whom the reader follows, from memory (`homeFeed.showsOf`). */
  followsOf: (readerId: string) => Promise<(userId: string) => boolean>;
  /** People followed by those the reader follows, most followed first, from memory (`homeFeed.followedByFollowees`). */
  followedByFollowees: (readerId: string, followeesAsked: number, want: number) => Promise<string[]>;
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

export function exploreService(deps: ExploreServiceDeps) {
  const { trends, repo, posts, hiddenAuthors, authors, followsOf, followedByFollowees, caches, refreshMs } = deps;
  // Explore's tags and people as every reader shares them, held beside the trends and the authors'
  // facts they are made of (new objects when those change): each a JSON text once (routes.ts).
  const shownTags = caches.renderings<Trends, TrendingTag[]>({ name: 'explore_tags' });
  const shownPeople = caches.renderings<AuthorFacts, PersonResult>({ name: 'explore_people' });
  /** The trending posts the reader may see from `ids[start]` on, highest first, at most `count`. */
  async function visibleFrom(reader: Reader, ids: string[], start: number, count: number): Promise<Post[]> {
    // A few more than wanted at a time: most readers see nearly all of them.
    const shown: Post[] = [];
    for (let from = start; shown.length < count && from < ids.length;) {
      const some = ids.slice(from, from + count - shown.length + LOOKED_BEYOND);
      from += some.length;
      shown.push(...(await posts.publicAmong(reader ?? NOBODY, some, count - shown.length)));
    }
    return shown;
  }

  /** The trending posts the reader may see, highest first, `offset` of them skipped (the client API). */
  async function trendingPosts(reader: Reader, limit: number, offset = 0): Promise<Post[]> {
    return (await visibleFrom(reader, (await trends.current()).postIds, 0, offset + limit)).slice(offset);
  }

  /**
   * A page of them after the cursor's post, `limit + 1` (the extra one says another page exists):
   * a cursor the trends no longer hold (they were worked out again) ends the list.
   */
  async function trendingPage(reader: Reader, page: Page): Promise<Post[]> {
    const ids = (await trends.current()).postIds;
    const start = page.cursor === null ? 0 : ids.indexOf(page.cursor) + 1;
    if (start === 0 && page.cursor !== null) return [];
    return visibleFrom(reader, ids, start, page.limit + 1);
  }

  async function trendingTags(limit: number, offset = 0): Promise<(TrendingTag & { history: TagDay[] })[]> {
    const { tags } = await trends.current();
    return tags
      .slice(offset, offset + limit)
      .map(({ tag, people, posts: count, history }) => ({ tag, people, posts: count, history }));
  }

  /**
   * Each reader's people followed by those they follow, worked out at most every `refreshMs` (like
   * the trends: a suggestion, not a list the reader changes); what can change sooner — whom they
   * follow, block or mute, who stops being discoverable or is suspended — is checked at each read.
   */
  const friendsKept = caches.keyed<string, Candidate[]>({
    name: 'explore_suggestions',
    ttlMs: refreshMs,
    max: SUGGESTIONS_KEPT_MAX,
    async load(readerIds) {
      const found = new Map<string, Candidate[]>();
      for (const id of readerIds) {
        // Twice as many as kept: some cannot be suggested (not discoverable, suspended).
        const ranked = await followedByFollowees(id, FOLLOWEES_ASKED, CANDIDATES_KEPT * 2);
        found.set(id, (await repo.suggestable(ranked)).slice(0, CANDIDATES_KEPT));
      }
      return found;
    },
  });

  /**
   * People to follow: not the reader, not followed by them, not hidden from them either way; and
   * where they come from: followed by those the reader follows, else the recently active.
   */
  async function suggestions(reader: Reader, limit: number): Promise<Suggestions> {
    const hidden = reader ? await hiddenAuthors.get(reader.id) : null;
    const followed = reader ? await followsOf(reader.id) : () => false;
    const pick = async (candidates: Candidate[]): Promise<AuthorFacts[]> => {
      const found: AuthorFacts[] = [];
      // Walked in order, a few more than still wanted at a time: most candidates are shown, and
      // each is a lookup (their facts for the rest of the checks).
      for (let at = 0; found.length < limit && at < candidates.length;) {
        const some: Candidate[] = [];
        for (; at < candidates.length && some.length < limit - found.length + LOOKED_BEYOND; at++) {
          const c = candidates[at];
          if (c.id !== reader?.id && !followed(c.id) && !hidden?.blocked.has(c.id) && !hidden?.muted.has(c.id))
            some.push(c);
        }
        const people = await authors.people(some.map((c) => c.key));
        for (const c of some) {
          const person = people.get(c.key);
          // Silenced people are shown to their followers alone, and followed people are not suggested.
          if (!person || person.suspendedAt || !person.facts.discoverable || person.facts.silenced) continue;
          if (found.length < limit) found.push(person.facts);
        }
      }
      return found;
    };
    const friends = reader ? ((await friendsKept.getMany([reader.id])).get(reader.id) ?? []) : [];
    const fromFriends = await pick(friends);
    if (fromFriends.length > 0) return { source: 'friendsOfFriends', people: fromFriends };
    // Someone who follows nobody (or whose follows follow nobody new): the recently active.
    return { source: 'recentlyActive', people: await pick((await trends.current()).active) };
  }

  return {
    trendingPosts,
    trendingPage,
    trendingTags,
    suggestions,
    /** The page's whole answer; its posts a page's, with one more when another page exists. */
    async explore(reader: Reader): Promise<Explore> {
      const [p, t, s] = await Promise.all([
        trendingPage(reader, { limit: EXPLORE_POSTS, cursor: null }),
        trends.current(),
        suggestions(reader, EXPLORE_PEOPLE),
      ]);
      return {
        posts: p,
        tags: shownTags.of(t, ({ tags }) =>
          tags.slice(0, EXPLORE_TAGS).map(({ tag, people: n, posts: count }) => ({ tag, people: n, posts: count })),
        ),
        people: s.people.map((facts) => shownPeople.of(facts, toPersonResult)),
      };
    },
  };
}

export type ExploreService = ReturnType<typeof exploreService>;
