/**
 * The kept comment counts of blocked people (server/posts/commentsByPerson.ts), over a loader that
 * counts its calls: what is kept, what is read again, and when the database has to count instead.
 * The counts as readers see them are tested through the API (blocks.test.ts, invalidationTable.test.ts).
 */
import { cacheRegistry } from '../../server/cache/registry';
import { commentsByPersonCache, type LoadCommentCounts } from '../../server/posts/commentsByPerson';

function loader(rows: Record<string, Record<string, number>>) {
  const asked: string[][] = [];
  const load: LoadCommentCounts = async (ids) => {
    asked.push([...ids]);
    return ids.flatMap((id) =>
      Object.entries(rows[id] ?? {}).map(([post_id, comments]) => ({ user_id: id, post_id, comments })),
    );
  };
  return { load, asked };
}

describe('the kept comment counts of blocked people', () => {
  it("sums the people's comments on each post, reading each person once", async () => {
    const { load, asked } = loader({ bob: { p1: 2, p2: 1 }, dan: { p1: 1, p9: 4 } });
    const cache = commentsByPersonCache(cacheRegistry(), load, { ttlMs: 60_000 });
    const people = new Set(['bob', 'dan', 'eve']);
    expect(await cache.countsOn(people, ['p1', 'p2', 'p3'])).toEqual(
      new Map([
        ['p1', 3],
        ['p2', 1],
      ]),
    );
    expect(await cache.countsOn(people, ['p9'])).toEqual(new Map([['p9', 4]]));
    expect(asked).toEqual([['bob', 'dan', 'eve']]);
    cache.forget('dan');
    expect(await cache.countsOn(people, ['p1'])).toEqual(new Map([['p1', 3]]));
    expect(asked).toEqual([['bob', 'dan', 'eve'], ['dan']]);
  });

  it('answers null for someone with comments on too many posts, so the database counts', async () => {
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`p${i}`, 1]));
    const cache = commentsByPersonCache(cacheRegistry(), loader({ bot: many, bob: { p0: 1 } }).load, {
      ttlMs: 60_000,
      maxPostsPerPerson: 3,
    });
    expect(await cache.countsOn(new Set(['bob']), ['p0'])).toEqual(new Map([['p0', 1]]));
    expect(await cache.countsOn(new Set(['bob', 'bot']), ['p0'])).toBeNull();
  });

  it('lets the people read longest ago go past its size, and keeps nothing a change overtook', async () => {
    const { load, asked } = loader({ a: { p1: 1, p2: 1 }, b: { p1: 1, p2: 1 }, c: { p1: 1 } });
    const cache = commentsByPersonCache(cacheRegistry(), load, { ttlMs: 60_000, maxPairs: 3 });
    await cache.countsOn(new Set(['a']), ['p1']);
    await cache.countsOn(new Set(['b']), ['p1']);
    expect(cache.size()).toBe(1);
    expect(cache.counts.evictions).toBe(1);
    // A change while a read is under way: what it read is not kept.
    const reading = cache.countsOn(new Set(['c']), ['p1']);
    cache.forget('c');
    expect(await reading).toEqual(new Map([['p1', 1]]));
    await cache.countsOn(new Set(['c']), ['p1']);
    expect(asked.filter((ids) => ids.includes('c'))).toHaveLength(2);
  });
});
