import { cacheRegistry } from '../../../server/cache/registry';
import { followeeCache } from '../../../server/posts/homeFeed/followeeCache';
import { listHolds, personNumbers } from '../../../server/posts/homeFeed/personNumbers';

/** A cache whose every list is `<user>-followee`, and the users whose lists it read, in order. */
function recording(options: Parameters<typeof followeeCache>[3]) {
  const reads: string[] = [];
  const numbers = personNumbers();
  const load = async (userId: string) => {
    reads.push(userId);
    return [`${userId}-followee`];
  };
  return { cache: followeeCache(cacheRegistry(), load, numbers, options), reads, numbers };
}

describe('the followee cache', () => {
  it('reads a follow list once per ttl, again after forget, and never keeps more than max', async () => {
    const { cache, reads, numbers } = recording({ ttlMs: 60_000, max: 2 });
    expect(await cache.get('a')).toEqual(Int32Array.of(numbers.numberOf('a-followee')));
    await cache.get('a');
    expect(reads).toEqual(['a']);
    cache.forget('a');
    await cache.get('a');
    expect(reads).toEqual(['a', 'a']);
    await cache.get('b');
    await cache.get('c'); // evicts a, the oldest
    await cache.get('b');
    await cache.get('a');
    expect(reads).toEqual(['a', 'a', 'b', 'c', 'a']);
  });

  it('reads the lists getMany misses, each once, and keeps them for get', async () => {
    const { cache, reads, numbers } = recording({ ttlMs: 60_000 });
    await cache.get('a');
    const lists = await cache.getMany(['a', 'b', 'c']);
    expect([...lists.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(lists.get('c')).toEqual(Int32Array.of(numbers.numberOf('c-followee')));
    expect(numbers.idOf(lists.get('b')![0])).toBe('b-followee');
    await cache.get('b');
    expect(reads).toEqual(['a', 'b', 'c']);
  });

  it('tells whom a kept list follows without reading it, and nothing of a list not kept', async () => {
    const lists: Record<string, string[]> = { a: ['b', 'c'] };
    const cache = followeeCache(cacheRegistry(), async (userId) => lists[userId] ?? [], personNumbers(), {
      ttlMs: 60_000,
    });
    expect(cache.follows('a', 'b')).toBeUndefined();
    await cache.get('a');
    expect([cache.follows('a', 'b'), cache.follows('a', 'c'), cache.follows('a', 'd')]).toEqual([true, true, false]);
    lists.a = ['d'];
    cache.forget('a');
    expect(cache.follows('a', 'b')).toBeUndefined();
    await cache.get('a');
    expect([cache.follows('a', 'b'), cache.follows('a', 'd')]).toEqual([false, true]);
  });

  it('keeps nothing with ttl 0, and reads again once the ttl has passed', async () => {
    let reads = 0;
    const none = followeeCache(
      cacheRegistry(),
      async () => {
        reads += 1;
        return [];
      },
      personNumbers(),
      { ttlMs: 0 },
    );
    await none.get('a');
    await none.get('a');
    expect(reads).toBe(2);
    vi.useFakeTimers();
    try {
      const brief = followeeCache(
        cacheRegistry(),
        async () => {
          reads += 1;
          return [];
        },
        personNumbers(),
        { ttlMs: 1_000 },
      );
      await brief.get('a');
      await brief.get('a');
      expect(reads).toBe(3);
      vi.advanceTimersByTime(1_001);
      await brief.get('a');
      expect(reads).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps no list whose loading a forget overtook', async () => {
    let reads = 0;
    const cache: ReturnType<typeof followeeCache> = followeeCache(
      cacheRegistry(),
      async (userId) => {
        reads += 1;
        // The follow committed elsewhere while this read ran: its message arrives meanwhile.
        if (reads === 1) cache.forget(userId);
        return [];
      },
      personNumbers(),
      { ttlMs: 60_000 },
    );
    await cache.get('a');
    await cache.get('a');
    await cache.get('a');
    expect(reads).toBe(2);
  });
});

describe("the people's numbers", () => {
  it('gives each person one number, lists them ascending and once, and finds them in a list', () => {
    const numbers = personNumbers();
    const [c, a, b] = ['c', 'a', 'b'].map(numbers.numberOf);
    expect([c, a, b]).toEqual([0, 1, 2]);
    expect(numbers.numberOf('a')).toBe(a);
    expect(numbers.known('d')).toBeUndefined();
    const list = numbers.listOf(['b', 'd', 'c', 'b']);
    expect([...list]).toEqual([c, b, numbers.known('d')]);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => listHolds(list, numbers.known(id)))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    expect(listHolds(new Int32Array(0), a)).toBe(false);
  });
});
