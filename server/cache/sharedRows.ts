/**
 * Rows as every reader shares them (posts, comments), kept in memory so that a list page is read
 * from the database once, not once per request (docs/api-decisions.md, "Shared rows"):
 *
 * - a row (counts, creator, text), the same object for every reader but with their own reaction;
 * - each reader's reactions, all of them, read in one statement (`loadReactions`), so one row
 *   serves any number of readers (a reader with more than `maxReactionsPerReader` has the
 *   reaction they were read with remembered on the row instead, for `maxReadersPerRow` readers);
 * - a list page's ids (everyone's posts, a tag's, a profile's, a post's comments), unfiltered:
 *   what a reader may not see is filtered per request, in memory (`ListPage.shows`).
 *
 * Only what is read twice within `ttlMs` is kept (`secondRead`). Every write that changes what a
 * cached row or list shows makes the cache forget it at once, on every instance (the events and
 * their table, `invalidation.ts`); `ttlMs` bounds how long a change no event carried (another
 * instance without Redis, a tool writing to the database) can go unseen. A read that started before a change never stores what
 * it read (`changes`, as the session cache's `forgets`).
 */
import type { Reaction } from '../../lib/types';
import { setBounded } from './bounded';
import type { KeyedCache } from './keyedCache';
import type { ReaderReactions } from './readerReactions';
import type { CacheRegistry } from './registry';

/** What a shared row needs: its id, and the reader's reaction it was read with. */
export interface ReaderRow {
  id: string;
  my_reaction: string | null;
}

/** All of the reader's reactions, by row id, when they have at most `max`; null when they have more. */
export type LoadReactions = (viewerId: string, max: number) => Promise<ReaderReactions | null>;

export interface SharedRowsOptions<Row> {
  /** Where its caches are made: `<name>s` (rows), `<name>_pages` and `<name>_readers` (reactions). */
  caches: CacheRegistry;
  name: string;
  ttlMs: number;
  /** Each reader's reactions apart from the rows; without it, rows remember their readers'. */
  loadReactions?: LoadReactions;
  /** A reader with more reactions than this has them remembered on the rows. */
  maxReactionsPerReader?: number;
  /** Readers' reactions kept in all (20 B each, `readerReactions.ts`); past it, the readers read longest ago go. */
  maxReactions?: number;
  maxRows?: number;
  maxLists?: number;
  /** Readers whose reaction a row remembers; past it, the row starts over. */
  maxReadersPerRow?: number;
  /** Most ids one list page walks before it leaves the filtering to the database. */
  maxIdsPerPage?: number;
  /** Two reads of a row agree on everything but the reader's reaction. */
  same(a: Row, b: Row): boolean;
}

/**
 * Loads the rows of these ids; a deleted one has no row. With `withReaction` each carries
 * `viewerId`'s reaction; without, the cache has the reader's reactions already, and the loader may
 * leave it null (an index look-up less for each row, often a page read from disk for an old one).
 */
export type LoadRows<Row> = (viewerId: string, ids: string[], withReaction: boolean) => Promise<Row[]>;

/** Between a list's key and a page's cursor in the page's key; a first page's key ends with it. */
const CURSOR_MARK = '|';

/** A list page's key: the list's key, then the page's cursor (none for the first page). */
export const pageKey = (list: string, cursor: string | null | undefined): string =>
  `${list}${CURSOR_MARK}${cursor ?? ''}`;

/** One list page as the cache walks it. */
export interface ListPage<Row> {
  /** The list and the page's cursor (`pageKey`). */
  key: string;
  cursor: string | null;
  /**
   * The next `count` ids of the list below `after` (the page's cursor first), newest first,
   * unfiltered; null when they cannot be had now (the page is then the database's).
   */
  ids(after: string | null, count: number): Promise<string[] | null>;
  /**
   * Whether the reader may see the row here; null: the page is the database's to answer (a profile
   * whose one creator is hidden from the reader: the database then says why).
   */
  shows(row: Row): boolean | null;
  /** How many rows the page wants (its limit and one more). */
  want: number;
}

export interface SharedRows<Row extends ReaderRow> {
  /** The rows of `ids` as `viewerId` sees them, in the same order; deleted ones are left out. */
  rows(viewerId: string, ids: string[]): Promise<Row[]>;
  /** The page's rows, or null when too many were hidden from the reader (the database filters better). */
  page(viewerId: string, page: ListPage<Row>): Promise<Row[] | null>;
  /** Whether the row object is one the cache shares between requests (never to be changed). */
  shares(row: Row): boolean;
  /** The row's counts or text changed. */
  changed(id: string): void;
  /**
   * The reader's reaction to the row is now `reaction`, and the row's counts changed: to `counted.now`
   * in place when the kept row shows `now - by` (it saw every move before), else it is read again.
   */
  reacted(id: string, readerId: string, reaction: Reaction | null, counted?: CountsChange): void;
  /** The row is gone. */
  removed(id: string): void;
  /** A row moved (new tags): the list pages whose key starts with `prefix` (all: '') may hold other ids. */
  listsChanged(prefix?: string): void;
  /** A row was added to these lists (keys without the cursor): their kept first pages take its id in place. */
  added(id: string, lists: string[]): void;
  /**
   * A row was added to some of the lists whose keys start with `prefix`: each kept first page takes
   * its id in place where `takes(list)` is true, stays as it is where false, and is forgotten where
   * it is not known (undefined).
   */
  addedWhere(id: string, prefix: string, takes: (list: string) => boolean | undefined): void;
  /** A user's name, avatar or suspension changed, or an account went: rows show their creators. */
  usersChanged(): void;
  /** False when `ttlMs` is 0: nothing is kept, and the callers ask the database as they did before. */
  readonly enabled: boolean;
}

interface Entry<Row> {
  /** The row with no reaction; `like` and `dislike` are the same row with that reaction, made once. */
  base: Row;
  like?: Row;
  dislike?: Row;
  /** Each reader's reaction, as read with the row or since; no map while readers' reactions are kept apart. */
  mine: Map<string, Reaction | null> | undefined;
}

/** Where a change left some of a row's counters, and how far it moved them. */
export interface CountsChange {
  now: Record<string, number>;
  by: Record<string, number>;
}

/** A row this process saw deleted (ids are never reused). */
const GONE = 'gone';
const GONE_ENTRY = { gone: GONE } as const;

interface ListEntry {
  ids: string[];
  /** The list ends after `ids`. */
  complete: boolean;
  /** When its first ids were read: a page grown later runs out with them. */
  until: number;
}

/** `before` when it holds the same ids as `now` (a list read again after its time): the old array stays. */
function sameIds(before: string[] | undefined, now: string[]): string[] {
  if (!before || before.length !== now.length) return now;
  for (let i = 0; i < now.length; i++) if (before[i] !== now[i]) return now;
  return before;
}

export function sharedRows<Row extends ReaderRow>(
  load: LoadRows<Row>,
  {
    caches,
    name,
    ttlMs,
    // A community's working set (docs/benchmarks/log/2026-11-27.md, "A community's mix"): 2,000 readers' home pages,
    // hundreds of profiles and tags, the recent posts; ~30 MB at most (a row with its Post and JSON
    // ~2-3 KB, a list ~1.5 KB). Half as many made the 2,000-reader mix a third slower.
    maxRows = 10_000,
    maxLists = 5_000,
    maxReadersPerRow = 100,
    maxIdsPerPage = 200,
    loadReactions,
    maxReactionsPerReader = 2_000,
    maxReactions = 500_000,
    same,
  }: SharedRowsOptions<Row>,
): SharedRows<Row> {
  const known = caches.keyed<string, Entry<Row> | typeof GONE_ENTRY>({ name: `${name}s`, ttlMs, max: maxRows });
  const lists = caches.keyed<string, ListEntry>({ name: `${name}_pages`, ttlMs, max: maxLists });
  // Reactions held in all (20 B each): past `maxReactions`, the readers read longest ago go. A
  // reaction changed in place is weighed when the reader's are read again.
  const readers = caches.keyed<string, ReaderReactions | null>({
    name: `${name}_readers`,
    ttlMs,
    max: maxReactions,
    weigh: (reactions) => reactions?.size ?? 0,
  });
  const shared = new WeakSet<Row>();
  // Row ids and page keys read once lately. A row or a page is kept from its second read within
  // `ttlMs`: reads seen once (a long scroll, a crawler) would otherwise push out what many read,
  // and fill the old generation with entries that die there.
  const readOnce = new Map<string, number>();
  function secondRead(key: string, now: number): boolean {
    const until = readOnce.get(key);
    if (until !== undefined && until > now) {
      readOnce.delete(key);
      return true;
    }
    setBounded(readOnce, key, now + ttlMs, maxRows * 4);
    return false;
  }
  /** Drops what a change made stale; what was kept was read often, so its next read keeps it again. */
  function forget(cache: KeyedCache<string, unknown>, keys: Iterable<string>): void {
    // Even when nothing is kept: a read under way may predate the change.
    cache.changed();
    const now = Date.now();
    for (const key of keys) {
      if (cache.peekStale(key) === undefined) continue;
      cache.forget(key);
      setBounded(readOnce, key, now + ttlMs, maxRows * 4);
    }
  }
  const keysOf = (cache: KeyedCache<string, unknown>, which: (key: string) => boolean) =>
    [...cache.keys()].filter(which);

  /** The reader's reactions as kept: null when they are kept on the rows instead, undefined when not read. */
  const keptReactions = (readerId: string): ReaderReactions | null | undefined =>
    loadReactions ? readers.peek(readerId) : null;
  /** Reads the reader's reactions, once per `ttlMs`. */
  const readReactions = async (readerId: string): Promise<ReaderReactions | null> =>
    (await readers.get(readerId, () => loadReactions!(readerId, maxReactionsPerReader)))!;

  const viewOf = (entry: Entry<Row>, reaction: Reaction | null): Row => {
    if (reaction === null) return entry.base;
    let row = entry[reaction];
    if (!row) {
      row = entry[reaction] = { ...entry.base, my_reaction: reaction };
      shared.add(row);
    }
    return row;
  };

  /**
   * `until`: when the rows read with it run out (one moment for a page's rows, read again together).
   * `apart`: the reader's reactions are kept apart from the rows (`keptReactions`).
   */
  function remember(viewerId: string, row: Row, until: number, apart: boolean): Row {
    const before = known.peekStale(row.id);
    let entry: Entry<Row>;
    if (before && !('gone' in before) && same(before.base, row)) {
      entry = before;
      // Read again after its time: the same row (and its Post and JSON) stays, the reactions start over.
      if (known.peek(row.id) === undefined) {
        entry.mine?.clear();
        known.put(row.id, entry, undefined, until);
      }
    } else {
      entry = { base: { ...row, my_reaction: null }, mine: undefined };
      shared.add(entry.base);
      known.put(row.id, entry, undefined, until);
    }
    const reaction = (row.my_reaction as Reaction | null) ?? null;
    if (!apart) {
      entry.mine ??= new Map();
      if (entry.mine.size >= maxReadersPerRow) entry.mine.clear();
      entry.mine.set(viewerId, reaction);
    }
    return viewOf(entry, reaction);
  }

  /**
   * Puts a reaction's counts on the kept row when it shows what they were before (a like on a
   * recent post would otherwise send the next reader of every page showing it to the database): a new row object
   * (rows are shared, never changed), so what was made of the old one is made again. False when
   * the row is not kept, or shows other counts (a change missed, or already read).
   */
  function countedInPlace(id: string, readerId: string, reaction: Reaction | null, { now, by }: CountsChange): boolean {
    const entry = known.peekStale(id);
    if (!entry || 'gone' in entry) return false;
    const before = entry.base as unknown as Record<string, unknown>;
    for (const field of Object.keys(now)) if (before[field] !== now[field] - (by[field] ?? 0)) return false;
    // A read under way saw the counts before: it keeps nothing.
    known.changed();
    entry.base = { ...entry.base, ...now };
    shared.add(entry.base);
    delete entry.like;
    delete entry.dislike;
    entry.mine?.set(readerId, reaction);
    return true;
  }

  /**
   * The row as the reader sees it, from memory alone: `GONE` for a row seen deleted, undefined when
   * it must be read (not kept, past its time, or the reader's reaction to it not known).
   */
  function keptRow(viewerId: string, id: string, reactions: ReaderReactions | null): Row | typeof GONE | undefined {
    const entry = known.peek(id);
    if (!entry) return undefined;
    if ('gone' in entry) return GONE;
    const reaction = reactions ? (reactions.get(id) ?? null) : entry.mine?.get(viewerId);
    return reaction === undefined ? undefined : viewOf(entry, reaction);
  }

  async function rows(viewerId: string, ids: string[]): Promise<Row[]> {
    if (ttlMs <= 0) {
      const loaded = new Map((await load(viewerId, ids, true)).map((row) => [row.id, row]));
      return ids.flatMap((id) => loaded.get(id) ?? []);
    }
    const now = Date.now();
    const kept = keptReactions(viewerId);
    // No await when they are kept: a cached page stays one synchronous pass.
    const reactions = kept === undefined ? await readReactions(viewerId) : kept;
    const found: (Row | undefined)[] = new Array(ids.length);
    const missingAt: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const row = keptRow(viewerId, ids[i], reactions);
      if (row === undefined) missingAt.push(i);
      else if (row !== GONE) found[i] = row;
    }
    known.count(true, ids.length - missingAt.length);
    known.count(false, missingAt.length);
    if (missingAt.length > 0) {
      const mark = known.mark();
      const missing = missingAt.map((i) => ids[i]);
      const loaded = new Map((await load(viewerId, missing, !reactions)).map((row) => [row.id, row]));
      const keep = mark === known.mark();
      const until = known.untilFromNow();
      for (const i of missingAt) {
        const read = loaded.get(ids[i]);
        if (read) {
          const row = reactions ? { ...read, my_reaction: reactions.get(read.id) ?? null } : read;
          found[i] =
            keep && (known.peekStale(row.id) !== undefined || secondRead(row.id, now))
              ? remember(viewerId, row, until, !!reactions)
              : row;
        } else if (keep) known.put(ids[i], GONE_ENTRY, mark, until);
      }
    }
    const out: Row[] = [];
    for (const row of found) if (row) out.push(row);
    return out;
  }

  /**
   * `mark`: the lists' mark when the walk took `entry` (or began, without one). A change since, even
   * one that came while the walk awaited rows before growing it, keeps the grown page from being
   * stored over what the change forgot.
   */
  async function listIds(page: ListPage<Row>, entry: ListEntry | undefined, count: number, mark: number) {
    const after = entry && entry.ids.length > 0 ? entry.ids[entry.ids.length - 1] : null;
    const more = await page.ids(after ?? page.cursor, count);
    if (more === null) return null;
    const next: ListEntry = {
      ids: entry ? [...entry.ids, ...more] : sameIds(lists.peekStale(page.key)?.ids, more),
      complete: more.length < count,
      until: entry?.until ?? lists.untilFromNow(),
    };
    lists.put(page.key, next, mark, next.until);
    return next;
  }

  /** A new row's id goes on top of the kept first page `pageKey` (when kept). */
  function putOnTop(pageKey: string, id: string): void {
    const entry = lists.peekStale(pageKey);
    if (!entry) return;
    // A page past its time, or walked far, is read again rather than grown without end.
    if (lists.peek(pageKey) === undefined || entry.ids.length >= maxIdsPerPage) {
      forget(lists, [pageKey]);
      return;
    }
    // Ids are newest first: a new post's place is at the top. One older than every id kept of a
    // list that goes on is read from the database when the walk gets there.
    const at = entry.ids.findIndex((other) => other <= id);
    if ((at === -1 && !entry.complete) || entry.ids[at] === id) return;
    entry.ids = entry.ids.toSpliced(at === -1 ? entry.ids.length : at, 0, id);
  }

  return {
    rows,

    async page(viewerId, page) {
      if (ttlMs <= 0) return null;
      const now = Date.now();
      const mark = lists.mark();
      let entry: ListEntry | null | undefined = lists.peek(page.key);
      lists.count(entry !== undefined);
      if (!entry) {
        // A page read once is the database's to answer, as before the cache.
        if (lists.peekStale(page.key) === undefined && !secondRead(page.key, now)) return null;
        entry = await listIds(page, undefined, page.want * 2, mark);
        if (!entry) return null;
      }
      const out: Row[] = [];
      /** Takes the row if the reader may see it: true once the page is full, null when it is the database's. */
      const take = (row: Row): boolean | null => {
        const shown = page.shows(row);
        if (shown !== true) return shown;
        out.push(row);
        return out.length === page.want;
      };
      // With the reader's reactions known, kept rows are taken one by one, with no await.
      const reactions = keptReactions(viewerId);
      let from = 0;
      for (;;) {
        while (from < entry.ids.length) {
          const kept = reactions === undefined ? undefined : keptRow(viewerId, entry.ids[from], reactions);
          if (kept !== undefined) {
            from++;
            known.count(true);
            const full = kept === GONE ? false : take(kept);
            if (full !== false) return full && out;
            continue;
          }
          // Only the rows the page still wants: the list keeps twice as many ids, and reading (and
          // keeping) the rows of all of them would double the rows every page holds in the cache.
          const ids = entry.ids.slice(from, from + page.want - out.length);
          from += ids.length;
          for (const row of await rows(viewerId, ids)) {
            const full = take(row);
            if (full !== false) return full && out;
          }
        }
        if (entry.complete) return out;
        if (entry.ids.length >= maxIdsPerPage) return null;
        entry = await listIds(page, entry, page.want * 2, mark);
        if (!entry) return null;
      }
    },

    shares: (row) => shared.has(row),

    changed: (id) => forget(known, [id]),
    reacted(id, readerId, reaction, counted) {
      if (!counted || !countedInPlace(id, readerId, reaction, counted)) forget(known, [id]);
      // Whatever it is, the reader's reactions read across it are not kept.
      readers.changed();
      const reactions = readers.peekStale(readerId);
      if (!reactions) return;
      if (reaction) reactions.set(id, reaction);
      else reactions.delete(id);
    },
    removed(id) {
      known.changed();
      known.put(id, GONE_ENTRY);
    },
    listsChanged: (prefix = '') =>
      forget(
        lists,
        keysOf(lists, (key) => key.startsWith(prefix)),
      ),
    added(id, keys) {
      lists.changed();
      for (const key of keys) putOnTop(pageKey(key, null), id);
    },
    addedWhere(id, prefix, takes) {
      lists.changed();
      // Over the kept keys themselves (a key forgotten on the way is not visited again): a new post
      // walks every reader's kept home page, thousands of them.
      for (const first of lists.keys()) {
        if (!first.endsWith(CURSOR_MARK) || !first.startsWith(prefix)) continue;
        const taken = takes(first.slice(0, -CURSOR_MARK.length));
        if (taken === undefined) forget(lists, [first]);
        else if (taken) putOnTop(first, id);
      }
    },
    enabled: ttlMs > 0,
    usersChanged() {
      forget(known, [...known.keys()]);
      forget(lists, [...lists.keys()]);
    },
  };
}
