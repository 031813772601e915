/**
 * Whose posts a reader may not see, per reader, kept in memory so that a list cached for every
 * reader (`posts/postCache.ts`) is filtered without a statement: the people blocked either way,
 * those the reader mutes (the feeds only), and the silenced domains' people the reader follows
 * (shown where other silenced people are not). A block, mute, follow or domain block forgets the
 * sets it changed at once, on every instance (`invalidation/table.ts`); `ttlMs` bounds changes no
 * event carried.
 */
import type { CountedCache } from '../cache/counts';
import type { CacheRegistry } from '../cache/registry';
import { type Standing, mayShow } from './visibility';

export interface HiddenAuthors {
  /** Blocked by the reader or blocking them. */
  blocked: ReadonlySet<string>;
  /** Of `blocked`, those the reader blocks, and those who block the reader (a profile tells which). */
  blockedByReader: ReadonlySet<string>;
  blockingReader: ReadonlySet<string>;
  muted: ReadonlySet<string>;
  /** People of a silenced domain the reader follows (most readers: none). */
  followedSilenced: ReadonlySet<string>;
  /** People the reader follows and mutes: their followers-only posts stay readable (posts/audience.ts). */
  followedMuted: ReadonlySet<string>;
}

export interface HiddenAuthorsCache extends CountedCache {
  get(readerId: string): Promise<HiddenAuthors>;
  /** The user's blocks or mutes changed (either side of a block: call it for both). */
  forget(userId: string): void;
  /** Every reader's sets (a domain block changed whom each follows among the silenced). */
  forgetAll(): void;
}

/**
 * One row per relation, by `kind`: 0 the reader blocks them, 1 the reader mutes them, 2 a silenced
 * person the reader follows, 3 they block the reader, 4 a muted person the reader follows.
 */
export type LoadHidden = (readerId: string) => Promise<{ id: string; kind: number }[]>;

async function readHidden(load: LoadHidden, readerId: string): Promise<HiddenAuthors> {
  const sets = [new Set<string>(), new Set<string>(), new Set<string>(), new Set<string>(), new Set<string>()];
  for (const row of await load(readerId)) sets[Number(row.kind)].add(row.id);
  const [blockedByReader, muted, followedSilenced, blockingReader, followedMuted] = sets;
  const blocked = new Set([...blockedByReader, ...blockingReader]);
  return { blocked, blockedByReader, blockingReader, muted, followedSilenced, followedMuted };
}

export function hiddenAuthorsCache(
  caches: CacheRegistry,
  load: LoadHidden,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): HiddenAuthorsCache {
  const readers = caches.keyed<string, HiddenAuthors>({
    name: 'hidden_authors',
    ttlMs,
    max,
    load: async ([readerId]) => new Map([[readerId, await readHidden(load, readerId)]]),
  });
  return {
    counts: readers.counts,
    size: readers.size,
    get: async (readerId) => (await readers.get(readerId))!,
    forget: (userId) => readers.forget(userId),
    forgetAll: () => readers.forgetAll(),
  };
}

/** An author as a cached row has them: suspended (`suspended_at`), their domain silenced (`domain_silenced`). */
export interface RowAuthor {
  id: string;
  suspendedAt: string | null;
  silenced: number | boolean;
}

/** `mayShow` for a cached list: the cache keeps blocks either way as one set (both hide content alike). */
const standingIn = (hidden: HiddenAuthors, author: RowAuthor): Standing => {
  const blocked = hidden.blocked.has(author.id);
  const silenced = Number(author.silenced) === 1;
  return {
    suspended: author.suspendedAt !== null,
    viewerBlocksAuthor: blocked,
    authorBlocksViewer: blocked,
    viewerMutesAuthor: hidden.muted.has(author.id),
    silenced,
    // Only asked of silenced people: the set holds no one else.
    viewerFollowsAuthor: silenced && hidden.followedSilenced.has(author.id),
  };
};

/** What a reader may see of an author's content reached by its address (`mayShow`, `content`). */
export const showsContent = (hidden: HiddenAuthors, author: RowAuthor) =>
  mayShow(standingIn(hidden, author), 'content');

/** What they come across (a post's comments): not an unfollowed silenced person either. */
export const showsAcross = (hidden: HiddenAuthors, author: RowAuthor) => mayShow(standingIn(hidden, author), 'across');

/** And in the feeds (home, everyone, tags): not someone the reader mutes either. */
export const showsInFeeds = (hidden: HiddenAuthors, author: RowAuthor) => mayShow(standingIn(hidden, author), 'feed');

/** How the reader stands to someone by blocks (either way) and mutes, as a profile shows it (`hiddenFrom`). */
export const blocksAndMute = (hidden: HiddenAuthors, id: string) => ({
  blockedByMe: hidden.blockedByReader.has(id),
  blocksMe: hidden.blockingReader.has(id),
  mutedByMe: hidden.muted.has(id),
});
