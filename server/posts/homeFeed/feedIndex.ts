/**
 * The home feed's walk, in memory: every post's (id, creator) in id order in two typed arrays, so
 * a page's ids are found without the database's long walk (docs/benchmarks/log/2026-11-22.md#the-home-feed-the-walk-moved-into-memory).
 *
 * It is a cache of the posts table and is never the only record of anything:
 * - posts created or deleted through this process enter or leave it at once (`added`, `removed`);
 * - posts written by other instances (or tools) are read by `sync()`, at most every `syncMs`; each
 *   sync re-reads the ids minted in the last `lookbackMs` too, so a post committed late by another
 *   instance is not skipped;
 * - posts deleted elsewhere are found missing when the page's posts are read, and dropped then;
 * - above `maxPosts` posts it switches itself off (memory stays bounded) and the database walk
 *   answers, as it does while the index loads at start-up.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { type PersonNumbers, personNumbers } from './personNumbers';
import { UUID_WORDS, uuidOfWords, uuidWordsAt } from '../../domain/uuidWords';

export interface FeedIndexOptions {
  /** Above this many posts the index switches itself off (0: always off). */
  maxPosts: number;
  /** Least time between two reads of other instances' new posts. */
  syncMs: number;
  /** How far back (by the time in their ids) each sync re-reads posts. */
  lookbackMs?: number;
  /** Posts read per statement while loading; a chunk's string must stay short-lived (docs/benchmarks/notes.md#home-feed-index-and-queries). */
  chunk?: number;
  onOff?: (reason: string) => void;
}

export interface FeedIndex {
  /** Loads the posts in the background (the promise is for tests); until then `newest` answers null. */
  start(): Promise<void>;
  /**
   * Ids of the newest posts below `cursor` (all when null) by the viewer or any of `followees`,
   * newest first, at most `limit`; null when the index cannot answer (loading, off). `followees`
   * are numbers of the index's `PersonNumbers` (the follow lists' cache shares them).
   */
  newest(viewerId: string, followees: Int32Array, cursor: string | null, limit: number): string[] | null;
  added(id: string, creatorId: string): void;
  removed(id: string): void;
  /** Reads posts written elsewhere since the last sync, unless one ran in the last `syncMs`. */
  sync(): Promise<void>;
  /** The next `sync()` reads, whenever the last one ran. */
  syncSoon(): void;
  readonly state: FeedIndexState;
  close(): Promise<void>;
}

export type FeedIndexState = 'idle' | 'loading' | 'ready' | 'off';

/** A UUID is stored as four 32-bit words (`uuidWords.ts`); comparing the words in order compares the ids. */
const WORDS = UUID_WORDS;
const UUID_LENGTH = 36;
/** `creators` value of a post known to be deleted. */
const GONE = -1;

/** The smallest id string a UUIDv7 minted at `ms` or later can have. */
export function idFloorAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

export function createFeedIndex(
  db: Kysely<Database>,
  options: FeedIndexOptions,
  numbers: PersonNumbers = personNumbers(),
): FeedIndex {
  const { maxPosts, syncMs, lookbackMs = 10_000, chunk = 1_000 } = options;
  let state: FeedIndexState = maxPosts > 0 ? 'idle' : 'off';
  let ids = new Uint32Array(0);
  let creators = new Int32Array(0);
  let length = 0;
  /**
   * Scratch marks for one walk: one bit per creator number, all zero between walks. Bits and
   * Int32 words keep the marks few cache lines and small integers (docs/benchmarks/notes.md#home-feed-index-and-queries).
   */
  let marks = new Int32Array(0);
  const key = new Uint32Array(WORDS);
  let lastSyncStart = 0;
  let lastSyncAt = 0;
  let syncing: Promise<void> | null = null;
  let loading: Promise<void> | null = null;
  let closed = false;
  const tooMany = `more than ${maxPosts} posts (FEED_INDEX_MAX_POSTS)`;

  function switchOff(reason: string): void {
    state = 'off';
    ids = new Uint32Array(0);
    creators = new Int32Array(0);
    length = 0;
    // The people's numbers stay: the follow lists kept hold them.
    options.onOff?.(reason);
  }

  /** Compares the id at position `i` with `key`. */
  function compareAt(i: number): number {
    const at = i * WORDS;
    for (let w = 0; w < WORDS; w += 1) {
      if (ids[at + w] !== key[w]) return ids[at + w] < key[w] ? -1 : 1;
    }
    return 0;
  }

  /** First position whose id is not below `key`. */
  function lowerBoundOfKey(): number {
    let low = 0;
    let high = length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareAt(mid) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** First position whose id is not below `id` (a cursor: a UUID, checked where it arrives). */
  function lowerBound(id: string): number {
    if (!uuidWordsAt(id, 0, key, 0)) key.fill(0);
    return lowerBoundOfKey();
  }

  function ensureCapacity(needed: number): void {
    if (needed <= creators.length) return;
    const capacity = Math.max(1024, needed, Math.ceil(creators.length * 1.5));
    const grownIds = new Uint32Array(capacity * WORDS);
    grownIds.set(ids.subarray(0, length * WORDS));
    const grownCreators = new Int32Array(capacity);
    grownCreators.set(creators.subarray(0, length));
    ids = grownIds;
    creators = grownCreators;
  }

  /**
   * Puts a post (its id at `offset` of `source`) in its place; a post already known (or known
   * deleted) stays as it is.
   */
  function insert(source: string, offset: number, creatorId: string): void {
    if (length >= maxPosts) {
      switchOff(tooMany);
      return;
    }
    if (!uuidWordsAt(source, offset, key, 0)) return; // not an id newId() writes: never in a feed's order
    let at = length;
    if (length > 0 && compareAt(length - 1) >= 0) {
      // Not newer than the newest known: a late commit elsewhere, or a post seen before.
      at = lowerBoundOfKey();
      if (at < length && compareAt(at) === 0) return;
    }
    ensureCapacity(length + 1);
    if (at < length) {
      ids.copyWithin((at + 1) * WORDS, at * WORDS, length * WORDS);
      creators.copyWithin(at + 1, at, length);
    }
    ids.set(key, at * WORDS);
    creators[at] = numbers.numberOf(creatorId);
    length += 1;
  }

  async function load(): Promise<void> {
    const started = Date.now();
    const { n } = await db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) > maxPosts) return switchOff(tooMany);
    // Room for what there is and as much again, so neither loading nor a day of posts copies the
    // arrays (a copy holds both at once): pages never written are not resident, so the room costs
    // address space, not memory (docs/benchmarks/log/2026-11-28.md, "The log starts over under a stream of
    // writes": "Room to grow costs no memory").
    ensureCapacity(Math.min(maxPosts, Number(n) * 2 + 1024));
    const pair = 2 * UUID_LENGTH;
    let after: string | null = null;
    for (;;) {
      // Each chunk as one string of (id, creator id) pairs, not a row object per post: loading must
      // not leave the heap full of garbage (docs/benchmarks/notes.md#home-feed-index-and-queries).
      let rows = db.selectFrom('posts').select(['id', 'creator_id']);
      if (after !== null) rows = rows.where('id', '>', after);
      const { pairs, n: count } = await db
        .selectFrom(rows.orderBy('id').limit(chunk).as('c'))
        .select([
          sql<string | null>`string_agg(c.id || c.creator_id, '' order by c.id)`.as('pairs'),
          sql<string | number>`count(*)`.as('n'),
        ])
        .executeTakeFirstOrThrow();
      if (closed) return;
      if (pairs === null) break;
      if (pairs.length !== Number(count) * pair) return switchOff('a post or user id that is not a UUID');
      for (let at = 0; at < pairs.length; at += pair) {
        insert(pairs, at, pairs.slice(at + UUID_LENGTH, at + pair));
        if (state === 'off') return;
      }
      if (Number(count) < chunk) break;
      after = pairs.slice(pairs.length - pair, pairs.length - UUID_LENGTH);
      // Loading takes seconds on a large table: let requests run in between.
      await yieldToEventLoop();
    }
    // Whatever was written while loading is re-read by the first sync.
    lastSyncStart = started;
    lastSyncAt = 0;
    state = 'ready';
  }

  /** Counts `syncSoon` calls: one made while a sync reads asks for another after it. */
  let soonAsked = 0;
  async function readRecent(): Promise<void> {
    const started = Date.now();
    const asked = soonAsked;
    const rows = await db
      .selectFrom('posts')
      .select(['id', 'creator_id'])
      .where('id', '>=', idFloorAt(lastSyncStart - lookbackMs))
      .orderBy('id')
      .execute();
    if (state !== 'ready') return;
    for (const row of rows) {
      insert(row.id, 0, row.creator_id);
      if (state !== 'ready') return;
    }
    lastSyncStart = started;
    lastSyncAt = asked === soonAsked ? Date.now() : 0;
  }

  return {
    start() {
      if (state === 'idle') {
        state = 'loading';
        loading = load().catch((error: Error) => switchOff(`loading failed: ${error.message}`));
      }
      return loading ?? Promise.resolve();
    },

    newest(viewerId, followed, cursor, limit) {
      if (state !== 'ready') return null;
      if (marks.length * 32 < numbers.size) marks = new Int32Array(Math.ceil(numbers.size / 16));
      const viewer = numbers.known(viewerId) ?? GONE;
      const marked = viewer !== GONE || followed.length > 0;
      if (viewer !== GONE) marks[viewer >>> 5] |= 1 << (viewer & 31);
      for (let i = 0; i < followed.length; i += 1) {
        const n = followed[i];
        marks[n >>> 5] |= 1 << (n & 31);
      }
      const found: string[] = [];
      if (marked && limit > 0) {
        // Locals: the loop then reads no closure variables.
        const posts = creators;
        const bits = marks;
        for (let i = (cursor === null ? length : lowerBound(cursor)) - 1; i >= 0; i -= 1) {
          const creator = posts[i];
          if (creator !== GONE && (bits[creator >>> 5] & (1 << (creator & 31))) !== 0) {
            found.push(uuidOfWords(ids, i * WORDS));
            if (found.length === limit) break;
          }
        }
      }
      if (viewer !== GONE) marks[viewer >>> 5] = 0;
      for (let i = 0; i < followed.length; i += 1) marks[followed[i] >>> 5] = 0;
      return found;
    },

    added(id, creatorId) {
      if (state === 'ready') insert(id, 0, creatorId);
    },

    removed(id) {
      if (state !== 'ready' || length === 0) return;
      const at = lowerBound(id);
      if (at < length && compareAt(at) === 0) creators[at] = GONE;
    },

    async sync() {
      if (state !== 'ready' || Date.now() - lastSyncAt < syncMs) return;
      syncing ??= readRecent().finally(() => {
        syncing = null;
      });
      await syncing;
    },

    syncSoon() {
      soonAsked += 1;
      lastSyncAt = 0;
    },

    get state() {
      return state;
    },

    async close() {
      closed = true;
      await loading;
      await syncing;
    },
  };
}
