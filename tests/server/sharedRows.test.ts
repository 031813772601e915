import type { Reaction } from '../../lib/types';
import { ReaderReactions } from '../../server/cache/readerReactions';
import { type ListPage, type ReaderRow, sharedRows } from '../../server/cache/sharedRows';
import { cacheRegistry } from '../../server/cache/registry';
import { hiddenAuthorsCache } from '../../server/safety/hiddenAuthors';

/** Each cache its own registry, as each app has. */
const fresh = () => ({ caches: cacheRegistry(), name: 'row' });

interface Row extends ReaderRow {
  author: string;
  likes: number;
}

/** A little database: rows by id, each reader's reactions, and every load it answered. */
function database(count: number) {
  const rows = new Map<string, Row>();
  // Ids sort like UUIDv7s: the newest is the greatest.
  for (let i = 1; i <= count; i++) {
    const id = `p${String(i).padStart(3, '0')}`;
    rows.set(id, { id, author: `a${i % 5}`, likes: 0, my_reaction: null });
  }
  const reactions = new Map<string, Reaction>();
  const loads: string[][] = [];
  const idLoads: (string | null)[] = [];
  const reactionLoads: string[] = [];
  return {
    rows,
    reactions,
    loads,
    idLoads,
    reactionLoads,
    /** All of a reader's reactions, or null past `max`. */
    async loadReactions(readerId: string, max: number): Promise<ReaderReactions | null> {
      reactionLoads.push(readerId);
      const mine = [...reactions].filter(([key]) => key.startsWith(`${readerId}:`));
      return mine.length > max
        ? null
        : ReaderReactions.of(mine.map(([key, kind]) => [key.slice(readerId.length + 1), kind]));
    },
    async load(readerId: string, ids: string[]): Promise<Row[]> {
      loads.push(ids);
      return ids.flatMap((id) => {
        const row = rows.get(id);
        return row ? [{ ...row, my_reaction: reactions.get(`${readerId}:${id}`) ?? null }] : [];
      });
    },
    /** The list's ids below `after`, newest first. */
    async ids(after: string | null, count: number): Promise<string[]> {
      idLoads.push(after);
      return [...rows.keys()]
        .filter((id) => after === null || id < after)
        .sort()
        .reverse()
        .slice(0, count);
    },
  };
}

const same = (a: Row, b: Row) => a.likes === b.likes;

const pageOf = (db: ReturnType<typeof database>, want: number, shows: (row: Row) => boolean | null = () => true) =>
  ({ key: 'all|', cursor: null, want, ids: db.ids, shows }) satisfies ListPage<Row>;

/** Pages and rows are kept from their second read: these tests read what they need cached twice first. */
async function readTwice<T>(read: () => Promise<T>): Promise<T> {
  await read();
  return read();
}

describe('shared rows', () => {
  it("keeps a row from its second read, with each reader's reaction, and shares it after", async () => {
    const db = database(3);
    db.reactions.set('ann:p001', 'like');
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    const [once] = await cache.rows('ann', ['p001']);
    expect(cache.shares(once)).toBe(false); // read once: not kept
    const [annFirst] = await cache.rows('ann', ['p001']);
    const [annAgain] = await cache.rows('ann', ['p001']);
    const [bob] = await cache.rows('bob', ['p001']);
    expect(annFirst.my_reaction).toBe('like');
    expect(annAgain).toBe(annFirst); // the same object: its Post and JSON are made once
    expect(cache.shares(annFirst)).toBe(true);
    expect(bob.my_reaction).toBeNull();
    expect(db.loads).toEqual([['p001'], ['p001'], ['p001']]);
    // Both readers known: neither reads again.
    await cache.rows('bob', ['p001']);
    await cache.rows('ann', ['p001']);
    expect(db.loads).toHaveLength(3);
  });

  it('answers a page read once from the database (null), and keeps it from its second read', async () => {
    const db = database(30);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    expect(await cache.page('ann', pageOf(db, 5))).toBeNull();
    expect((await cache.page('ann', pageOf(db, 5)))?.map((row) => row.id)).toEqual([
      'p030',
      'p029',
      'p028',
      'p027',
      'p026',
    ]);
    await cache.page('ann', pageOf(db, 5));
    expect(db.idLoads).toHaveLength(1);
  });

  it('reads a changed row again, and leaves out a removed one without asking for it', async () => {
    const db = database(3);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    await readTwice(() => cache.rows('ann', ['p001', 'p002']));
    db.rows.get('p001')!.likes = 5;
    cache.changed('p001');
    db.rows.delete('p002');
    cache.removed('p002');
    const rows = await cache.rows('ann', ['p001', 'p002']);
    expect(rows.map((row) => [row.id, row.likes])).toEqual([['p001', 5]]);
    expect(db.loads.at(-1)).toEqual(['p001']);
  });

  it('does not keep what a read found when a change came while it was reading', async () => {
    const db = database(2);
    let release = () => {};
    // Reads the rows now, answers when released.
    const slow = (readerId: string, ids: string[]) => {
      const rows = db.load(readerId, ids);
      return new Promise<Row[]>((resolve) => (release = () => resolve(rows)));
    };
    const cache = sharedRows(slow, { ...fresh(), ttlMs: 60_000, same });
    const first = cache.rows('ann', ['p001']); // read once: not kept anyway
    release();
    await first;
    const reading = cache.rows('ann', ['p001']);
    db.rows.get('p001')!.likes = 1; // the write commits after the read...
    cache.changed('p001'); // ...and says so before the read is done
    release();
    expect((await reading)[0].likes).toBe(0); // this answer is as old as its read
    const again = cache.rows('ann', ['p001']);
    release();
    expect((await again)[0].likes).toBe(1); // but it was not kept
  });

  it('does not write back a page forgotten while its walk was reading rows, when the walk grows it', async () => {
    const db = database(20);
    let held: (() => void) | null = null;
    // Reads the rows now; while `hold` is set, answers only when released.
    let hold = false;
    const load = (readerId: string, ids: string[]) => {
      const rows = db.load(readerId, ids);
      return hold ? new Promise<Row[]>((resolve) => (held = () => resolve(rows))) : rows;
    };
    const cache = sharedRows(load, { ...fresh(), ttlMs: 60_000, same });
    const home = { ...pageOf(db, 3), key: 'home|ann|' };
    await readTwice(() => cache.page('ann', home)); // six ids kept: p020..p015
    // A reader who sees one author in five finds two rows there and walks further down the list.
    hold = true;
    const walking = cache.page('bob', { ...home, shows: (row) => row.author === 'a0' });
    expect(held).not.toBeNull(); // the walk waits on the kept ids' rows...
    db.rows.set('p021', { id: 'p021', author: 'a1', likes: 0, my_reaction: null });
    cache.listsChanged('home|'); // ...when a change makes the page forgotten
    hold = false;
    held!();
    expect((await walking)?.map((row) => row.id)).toEqual(['p020', 'p015', 'p010']);
    // The grown page was as old as the walk: it must not have been kept.
    expect((await readTwice(() => cache.page('ann', home)))?.[0].id).toBe('p021');
  });

  it('forgets rows and lists by ttlMs, each kept three quarters of it at least', async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const db = database(30);
      const cache = sharedRows(db.load, { ...fresh(), ttlMs: 1000, same });
      await readTwice(() => cache.page('ann', pageOf(db, 5)));
      await cache.page('ann', pageOf(db, 5)); // the rows' second read: kept from here
      const loads = db.loads.length;
      vi.setSystemTime(749);
      await cache.page('ann', pageOf(db, 5));
      expect([db.loads.length, db.idLoads.length]).toEqual([loads, 1]);
      vi.setSystemTime(1000);
      await cache.page('ann', pageOf(db, 5));
      expect([db.loads.length, db.idLoads.length]).toEqual([loads + 1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rows read in one load run out together, those of another load at another moment', async () => {
    vi.useFakeTimers({ now: 0 });
    let drawn = 0.999; // as early as an entry may run out: three quarters of ttlMs
    const random = vi.spyOn(Math, 'random').mockImplementation(() => drawn);
    try {
      const db = database(30);
      const cache = sharedRows(db.load, { ...fresh(), ttlMs: 1000, same });
      await readTwice(() => cache.rows('ann', ['p001', 'p002']));
      drawn = 0;
      await readTwice(() => cache.rows('ann', ['p003', 'p004']));
      const loads = db.loads.length;
      vi.setSystemTime(800);
      await cache.rows('ann', ['p001', 'p002', 'p003', 'p004']);
      expect(db.loads.slice(loads)).toEqual([['p001', 'p002']]);
    } finally {
      random.mockRestore();
      vi.useRealTimers();
    }
  });

  it("filters a list for each reader, reading more of it when the reader's hidden rows leave too few", async () => {
    const db = database(40);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    const everything = await readTwice(() => cache.page('ann', pageOf(db, 5)));
    expect(everything?.map((row) => row.id)).toEqual(['p040', 'p039', 'p038', 'p037', 'p036']);
    // Ten ids were read (twice the page); hiding four authors of five needs more of the list.
    const onlyA0 = await cache.page(
      'bob',
      pageOf(db, 5, (row) => row.author === 'a0'),
    );
    expect(onlyA0?.map((row) => row.id)).toEqual(['p040', 'p035', 'p030', 'p025', 'p020']);
    expect(db.idLoads).toEqual([null, 'p031', 'p021']);
    // The list grew for everyone: the next reader walks it without reading ids again.
    await cache.page(
      'cat',
      pageOf(db, 5, (row) => row.author === 'a0'),
    );
    expect(db.idLoads).toHaveLength(3);
  });

  it("gives up (null) past maxIdsPerPage, or at the first row the reader says is the database's (null)", async () => {
    const db = database(100);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same, maxIdsPerPage: 30 });
    expect(
      await readTwice(() =>
        cache.page(
          'ann',
          pageOf(db, 5, () => false),
        ),
      ),
    ).toBeNull();
    expect(db.idLoads).toHaveLength(3); // 10 + 10 + 10 ids, then the database filters instead
    // A profile whose one creator is hidden: `shows` null, and the database says why.
    const profile = { ...pageOf(db, 5, (row) => (row.id === 'p098' ? null : true)), key: 'one|' };
    expect(await readTwice(() => cache.page('ann', profile))).toBeNull();
    expect(db.idLoads).toHaveLength(4); // its ids were read: the hidden row ended the walk
  });

  it('ends a page where the list ends', async () => {
    const db = database(3);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    const first = await readTwice(() => cache.page('ann', pageOf(db, 5)));
    expect(first?.map((row) => row.id)).toEqual(['p003', 'p002', 'p001']);
    const below = { ...pageOf(db, 5), key: 'all|p002', cursor: 'p002' };
    expect((await readTwice(() => cache.page('ann', below)))?.map((row) => row.id)).toEqual(['p001']);
  });

  it('forgets the lists a change names, and everything when users change', async () => {
    const db = database(10);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    const postA = { ...pageOf(db, 3), key: 'a|' };
    const postB = { ...pageOf(db, 3), key: 'b|' };
    const deeperA = { ...pageOf(db, 3), key: 'a|p005', cursor: 'p005' };
    for (const page of [postA, postB, deeperA]) await readTwice(() => cache.page('ann', page));
    cache.listsChanged('a|');
    for (const page of [postA, postB, deeperA]) await cache.page('ann', page);
    expect(db.idLoads).toHaveLength(5);
    const loads = db.loads.length;
    cache.usersChanged();
    expect(await cache.page('ann', postB)).not.toBeNull(); // kept before: kept again at once
    expect(db.idLoads).toHaveLength(6);
    expect(db.loads.length).toBeGreaterThan(loads);
  });

  it("puts an added row on top of the named lists' kept first pages, without reading their ids again", async () => {
    const db = database(30);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    const everyone = { ...pageOf(db, 3), key: 'all|' };
    const other = { ...pageOf(db, 3), key: 'other|' };
    await readTwice(() => cache.page('ann', everyone));
    await readTwice(() => cache.page('ann', other));
    db.rows.set('p031', { id: 'p031', author: 'a1', likes: 0, my_reaction: null });
    cache.added('p031', ['all']);
    expect((await cache.page('ann', everyone))?.map((row) => row.id)).toEqual(['p031', 'p030', 'p029']);
    expect((await cache.page('ann', other))?.map((row) => row.id)).toEqual(['p030', 'p029', 'p028']);
    expect(db.idLoads).toHaveLength(2);
    // Older than every id kept of a list that goes on: the walk reads it from the database later.
    cache.added('p000', ['all']);
    expect((await cache.page('ann', { ...everyone, want: 8 }))?.at(-1)?.id).toBe('p024');
  });

  it('puts an added row on top of the kept first pages it is told take it, keeps the others, forgets the unknown', async () => {
    const db = database(30);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same });
    const homeOf = (reader: string) => ({ ...pageOf(db, 3), key: `home|${reader}|` });
    for (const reader of ['fan', 'stranger', 'unknown']) await readTwice(() => cache.page(reader, homeOf(reader)));
    const asked: string[] = [];
    db.rows.set('p031', { id: 'p031', author: 'a1', likes: 0, my_reaction: null });
    cache.addedWhere('p031', 'home|', (list) => {
      asked.push(list);
      return { 'home|fan': true, 'home|stranger': false }[list];
    });
    expect(asked.sort()).toEqual(['home|fan', 'home|stranger', 'home|unknown']);
    const idLoads = db.idLoads.length;
    expect((await cache.page('fan', homeOf('fan')))?.map((row) => row.id)).toEqual(['p031', 'p030', 'p029']);
    expect((await cache.page('stranger', homeOf('stranger')))?.map((row) => row.id)).toEqual(['p030', 'p029', 'p028']);
    expect(db.idLoads).toHaveLength(idLoads);
    // Forgotten: its next read is the list's again (from the database's ids).
    expect((await cache.page('unknown', homeOf('unknown')))?.[0].id).toBe('p031');
    expect(db.idLoads).toHaveLength(idLoads + 1);
  });

  it('reads a list walked as far as maxIdsPerPage again rather than growing it with added rows', async () => {
    const db = database(30);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same, maxIdsPerPage: 6 });
    const everyone = { ...pageOf(db, 3), key: 'all|' };
    await readTwice(() => cache.page('ann', everyone)); // 6 ids: as far as a page may walk
    db.rows.set('p031', { id: 'p031', author: 'a1', likes: 0, my_reaction: null });
    cache.added('p031', ['all']);
    expect((await readTwice(() => cache.page('ann', everyone)))?.[0].id).toBe('p031');
    expect(db.idLoads).toEqual([null, null]);
  });

  it("keeps nothing with ttlMs 0: pages are the database's, rows are read every time", async () => {
    const db = database(3);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 0, same });
    expect(cache.enabled).toBe(false);
    expect(await readTwice(() => cache.page('ann', pageOf(db, 5)))).toBeNull();
    const rows = await readTwice(() => cache.rows('ann', ['p003', 'p009', 'p001']));
    expect(rows.map((row) => row.id)).toEqual(['p003', 'p001']);
    expect(cache.shares(rows[0])).toBe(false);
    expect(db.loads).toHaveLength(2);
    expect(db.idLoads).toHaveLength(0);
  });
});

describe("readers' reactions apart from the rows", () => {
  it('serves one row to any number of readers, each with their own reaction, one statement per reader', async () => {
    const db = database(2);
    const readers = Array.from({ length: 300 }, (_, i) => `r${i}`);
    readers.forEach((reader, i) => i % 3 === 0 && db.reactions.set(`${reader}:p001`, i % 2 ? 'like' : 'dislike'));
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same, loadReactions: db.loadReactions });
    for (let round = 0; round < 2; round++)
      for (const [i, reader] of readers.entries()) {
        const [row] = await cache.rows(reader, ['p001']);
        expect(row.my_reaction).toBe(i % 3 === 0 ? (i % 2 ? 'like' : 'dislike') : null);
      }
    // The row twice (kept from its second read), each reader's reactions once: 300 readers are
    // past the 100 a row remembers, which without them started the row over and read it again.
    expect(db.loads).toHaveLength(2);
    expect(db.reactionLoads).toEqual(readers);
  });

  it("takes a reaction into the reader's own set, and reads the row's counts again", async () => {
    const db = database(1);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same, loadReactions: db.loadReactions });
    await readTwice(() => cache.rows('ann', ['p001']));
    db.reactions.set('ann:p001', 'like');
    db.rows.get('p001')!.likes = 1;
    cache.reacted('p001', 'ann', 'like');
    const [liked] = await readTwice(() => cache.rows('ann', ['p001']));
    expect([liked.likes, liked.my_reaction]).toEqual([1, 'like']);
    db.reactions.delete('ann:p001');
    db.rows.get('p001')!.likes = 0;
    cache.reacted('p001', 'ann', null);
    const [undone] = await readTwice(() => cache.rows('ann', ['p001']));
    expect([undone.likes, undone.my_reaction]).toEqual([0, null]);
    expect(db.reactionLoads).toEqual(['ann']);
  });

  it("takes a reaction's counts in place when the kept row shows them before it, and reads the row again otherwise", async () => {
    const db = database(1);
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same, loadReactions: db.loadReactions });
    const [kept] = await readTwice(() => cache.rows('ann', ['p001']));
    const loads = db.loads.length;
    db.reactions.set('bob:p001', 'like');
    db.rows.get('p001')!.likes = 1;
    cache.reacted('p001', 'bob', 'like', { now: { likes: 1 }, by: { likes: 1 } });
    const [forAnn] = await cache.rows('ann', ['p001']);
    const [forBob] = await cache.rows('bob', ['p001']);
    expect([forAnn.likes, forAnn.my_reaction, forBob.likes, forBob.my_reaction]).toEqual([1, null, 1, 'like']);
    expect(db.loads).toHaveLength(loads); // no read of the row
    expect(forAnn).not.toBe(kept); // a new row: what was made of the old one (its Post, its JSON) is made again
    expect(cache.shares(forAnn)).toBe(true);

    // A like the cache never heard of (another instance's, its message lost), then one it hears of:
    // the kept row does not show the counts before the second, so it is read again.
    db.rows.get('p001')!.likes = 3;
    cache.reacted('p001', 'cat', 'like', { now: { likes: 3 }, by: { likes: 1 } });
    expect((await cache.rows('ann', ['p001']))[0].likes).toBe(3);
    expect(db.loads).toHaveLength(loads + 1);
  });

  it('does not keep a row read across counts taken in place', async () => {
    const db = database(2);
    db.reactions.set('dan:p002', 'like'); // more than maxReactionsPerReader: dan's reactions are on the rows
    let release = () => {};
    let slowNext = false;
    const load = (readerId: string, ids: string[]) => {
      const read = db.load(readerId, ids); // what the database holds now
      if (!slowNext) return read;
      slowNext = false;
      return new Promise<Row[]>((resolve) => (release = () => resolve(read)));
    };
    const cache = sharedRows(load, {
      ...fresh(),
      ttlMs: 60_000,
      same,
      loadReactions: db.loadReactions,
      maxReactionsPerReader: 0,
    });
    await readTwice(() => cache.rows('ann', ['p001']));
    slowNext = true;
    const reading = cache.rows('dan', ['p001']); // the kept row does not know dan's reaction: read
    await new Promise((resolve) => setImmediate(resolve)); // dan's reactions read, the row's read begun
    db.rows.get('p001')!.likes = 1; // bob's like commits after dan's read...
    cache.reacted('p001', 'bob', 'like', { now: { likes: 1 }, by: { likes: 1 } }); // ...and says so before it is done
    release();
    expect((await reading)[0].likes).toBe(0);
    expect((await cache.rows('ann', ['p001']))[0].likes).toBe(1);
  });

  it("does not keep a reader's reactions read across a reaction", async () => {
    const db = database(1);
    let release = () => {};
    const slow = (readerId: string, max: number) => {
      const read = db.loadReactions(readerId, max);
      return new Promise<ReaderReactions | null>((resolve) => (release = () => resolve(read)));
    };
    const cache = sharedRows(db.load, { ...fresh(), ttlMs: 60_000, same, loadReactions: slow });
    const reading = cache.rows('ann', ['p001']);
    db.reactions.set('ann:p001', 'like'); // the like commits after the read...
    cache.reacted('p001', 'ann', 'like'); // ...and says so before the read is done
    release();
    await reading;
    const again = cache.rows('ann', ['p001']);
    await Promise.resolve();
    release();
    expect((await again)[0].my_reaction).toBe('like');
    expect(db.reactionLoads).toEqual(['ann', 'ann']);
  });

  it('keeps the reactions of a reader with too many on the rows, as without the sets', async () => {
    const db = database(3);
    for (const id of ['p001', 'p002', 'p003']) db.reactions.set(`ann:${id}`, 'like');
    const cache = sharedRows(db.load, {
      ...fresh(),
      ttlMs: 60_000,
      same,
      loadReactions: db.loadReactions,
      maxReactionsPerReader: 2,
    });
    const rows = await readTwice(() => cache.rows('ann', ['p001', 'p002', 'p003']));
    expect(rows.map((row) => row.my_reaction)).toEqual(['like', 'like', 'like']);
    const loads = db.loads.length;
    await cache.rows('ann', ['p001', 'p002', 'p003']);
    expect(db.loads).toHaveLength(loads); // remembered on the rows
    cache.reacted('p002', 'ann', null);
    db.reactions.delete('ann:p002');
    expect((await cache.rows('ann', ['p002']))[0].my_reaction).toBeNull();
  });

  it('holds at most maxReactions, letting the readers read longest ago go first', async () => {
    const db = database(1);
    for (const reader of ['ann', 'bob', 'cat']) db.reactions.set(`${reader}:p001`, 'like');
    const cache = sharedRows(db.load, {
      ...fresh(),
      ttlMs: 60_000,
      same,
      loadReactions: db.loadReactions,
      maxReactions: 2,
    });
    for (const reader of ['ann', 'bob', 'cat', 'bob', 'cat', 'ann']) await cache.rows(reader, ['p001']);
    expect(db.reactionLoads).toEqual(['ann', 'bob', 'cat', 'ann']);
  });
});

describe('hidden authors', () => {
  it("reads a reader's blocks and mutes once, and again after a forget", async () => {
    const reads: string[] = [];
    const rows = [
      { id: 'b1', kind: 0 },
      { id: 'm1', kind: 1 },
    ];
    const cache = hiddenAuthorsCache(
      cacheRegistry(),
      async (readerId) => {
        reads.push(readerId);
        return rows;
      },
      { ttlMs: 60_000 },
    );
    const hidden = await cache.get('ann');
    expect([...hidden.blocked]).toEqual(['b1']);
    expect([...hidden.muted]).toEqual(['m1']);
    await cache.get('ann');
    expect(reads).toEqual(['ann']);
    rows.push({ id: 'b2', kind: 3 });
    cache.forget('ann');
    const again = await cache.get('ann');
    expect([...again.blocked]).toEqual(['b1', 'b2']);
    // Which way each block goes (a profile shows the reader's own block; the other's hides it).
    expect([...again.blockedByReader]).toEqual(['b1']);
    expect([...again.blockingReader]).toEqual(['b2']);
    expect(reads).toEqual(['ann', 'ann']);
  });

  it('does not keep a read that a forget overtook', async () => {
    let release = () => {};
    let reads = 0;
    const cache = hiddenAuthorsCache(
      cacheRegistry(),
      async () => {
        reads++;
        await new Promise<void>((resolve) => (release = resolve));
        return [];
      },
      { ttlMs: 60_000 },
    );
    const reading = cache.get('ann');
    await Promise.resolve();
    cache.forget('bob'); // a block between bob and ann, made while ann's set was being read
    release();
    await reading;
    const again = cache.get('ann');
    await Promise.resolve();
    release();
    await again;
    expect(reads).toBe(2);
  });
});
