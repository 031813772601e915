/**
 * The one cache building block (server/cache/keyedCache.ts) and the registry every cache is made in
 * (server/cache/registry.ts), over a clock the test moves and loaders that count their calls.
 */
import { cacheRegistry } from '../../server/cache/registry';

function setup() {
  const clock = { now: 0 };
  const registry = cacheRegistry(() => clock.now);
  const asked: string[][] = [];
  const load = async (keys: string[]) => {
    asked.push(keys);
    return new Map(keys.filter((k) => k !== 'none').map((k) => [k, `${k}!`]));
  };
  return { clock, registry, asked, load };
}

describe('a keyed cache', () => {
  it('loads a key once while it holds, counts hits and misses, and loads again after its time', async () => {
    const { clock, registry, asked, load } = setup();
    const cache = registry.keyed({ name: 'words', ttlMs: 1000, max: 10, load });
    expect(await cache.get('a')).toBe('a!');
    expect(await cache.get('a')).toBe('a!');
    expect(await cache.get('none')).toBeUndefined();
    expect(await cache.get('none')).toBeUndefined(); // nothing kept for a key without a value
    expect(asked).toEqual([['a'], ['none'], ['none']]);
    expect(cache.counts).toMatchObject({ hits: 1, misses: 3 });
    clock.now = 1000; // past even the latest expiry (the last quarter of ttlMs is random)
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peekStale('a')).toBe('a!');
    await cache.get('a');
    expect(asked).toHaveLength(4);
  });

  it('reads the missing keys of many in one call, and keeps nothing that a forget overtook', async () => {
    const { registry, asked, load } = setup();
    const cache = registry.keyed({ name: 'words', ttlMs: 1000, max: 10, load });
    await cache.get('a');
    const many = cache.getMany(['a', 'b', 'c', 'b']);
    cache.forget('x'); // another key: still, what is being read may predate the change
    expect([...(await many).entries()]).toEqual([
      ['a', 'a!'],
      ['b', 'b!'],
      ['c', 'c!'],
    ]);
    expect(asked).toEqual([['a'], ['b', 'c']]);
    expect([cache.peek('b'), cache.peek('c')]).toEqual([undefined, undefined]);
    const mark = cache.mark();
    cache.changed();
    cache.put('b', 'stale', mark);
    cache.put('c', 'fresh');
    expect([cache.peek('b'), cache.peek('c')]).toEqual([undefined, 'fresh']);
  });

  it('shares one load among the lookups of a key, but not with one made after a forget', async () => {
    const { registry } = setup();
    let calls = 0;
    const releases: (() => void)[] = [];
    const cache = registry.keyed<string, number>({
      name: 'slow',
      ttlMs: 1000,
      max: 10,
      load: (keys) => new Promise((resolve) => releases.push(() => resolve(new Map(keys.map((k) => [k, ++calls]))))),
    });
    const first = cache.get('a');
    const second = cache.get('a');
    cache.forget('a');
    const third = cache.get('a');
    await Promise.resolve();
    expect(releases).toHaveLength(2);
    releases.forEach((release) => release());
    expect([await first, await second, await third]).toEqual([1, 1, 2]);
    expect(cache.peek('a')).toBe(2);
  });

  it('holds at most `max` entries, or their weight, the oldest written going first', async () => {
    const { registry, load } = setup();
    const few = registry.keyed({ name: 'few', ttlMs: 1000, max: 2, load });
    await few.getMany(['a', 'b', 'c']);
    expect([few.peek('a'), few.peek('b'), few.peek('c')]).toEqual([undefined, 'b!', 'c!']);
    expect(few.counts.evictions).toBe(1);
    const heavy = registry.keyed<string, string[]>({ name: 'heavy', ttlMs: 1000, max: 3, weigh: (v) => v.length });
    heavy.put('a', ['1', '2']);
    heavy.put('b', ['1']);
    heavy.put('c', ['1', '2']);
    expect([heavy.peek('a'), heavy.size()]).toEqual([undefined, 2]);
    heavy.put('d', ['1', '2', '3', '4']); // heavier than the bound: kept alone
    expect([heavy.peek('b'), heavy.peek('c'), heavy.peek('d')]).toEqual([undefined, undefined, ['1', '2', '3', '4']]);
  });

  it('drops a few of the oldest entries past their time when keeping one', () => {
    const { clock, registry } = setup();
    const cache = registry.keyed<string, number>({ name: 'n', ttlMs: 1000, max: 10 });
    ['a', 'b', 'c', 'd', 'e'].forEach((key, i) => cache.put(key, i, undefined, i < 4 ? 100 : 300));
    clock.now = 200;
    cache.put('f', 5, undefined, 400);
    expect([...cache.keys()]).toEqual(['c', 'd', 'e', 'f']); // two at a time
    cache.put('g', 6, undefined, 400);
    expect([...cache.keys()]).toEqual(['e', 'f', 'g']); // e has time left: the walk stops there
    clock.now = 50;
    cache.put('h', 7, undefined, 400); // nothing past its time at 50
    expect([...cache.keys()]).toEqual(['e', 'f', 'g', 'h']);
  });

  it('keeps nothing with a time of 0, nothing `keeps` refuses, nothing past `holdsUntil`', async () => {
    const { clock, registry, asked, load } = setup();
    const off = registry.keyed({ name: 'off', ttlMs: 0, max: 10, load });
    await off.get('a');
    await off.get('a');
    expect(asked).toHaveLength(2);
    expect(off.enabled).toBe(false);
    const picky = registry.keyed({ name: 'picky', ttlMs: 1000, max: 10, load, keeps: (v: string) => v !== 'b!' });
    await picky.getMany(['a', 'b']);
    expect([picky.peek('a'), picky.peek('b')]).toEqual(['a!', undefined]);
    const brief = registry.keyed<string, number>({ name: 'brief', ttlMs: 1000, max: 10, holdsUntil: (v) => v });
    brief.put('x', 100);
    clock.now = 99;
    expect(brief.peek('x')).toBe(100);
    clock.now = 100;
    expect(brief.peek('x')).toBeUndefined();
  });
});

describe('the cache registry', () => {
  it('refuses a second cache of the same name, and lists what it made', () => {
    const { registry } = setup();
    registry.keyed({ name: 'a', ttlMs: 1, max: 1 });
    registry.onForgetEverything('index', () => {});
    expect(() => registry.keyed({ name: 'a', ttlMs: 1, max: 1 })).toThrow(/exists/);
    expect(() => registry.onForgetEverything('a', () => {})).toThrow(/exists/);
    expect(registry.names()).toEqual(['a', 'index']);
    expect([...registry.caches.keys()]).toEqual(['a']);
  });

  it('makes every cache forget, and starts over what it was told of; `except` leaves one out', () => {
    const { registry } = setup();
    const a = registry.keyed<string, number>({ name: 'a', ttlMs: 1000, max: 10 });
    const b = registry.keyed<string, number>({ name: 'b', ttlMs: 1000, max: 10 });
    let startedOver = 0;
    registry.onForgetEverything('index', () => startedOver++);
    a.put('k', 1);
    b.put('k', 2);
    registry.forgetEverything('b');
    expect([a.peek('k'), b.peek('k'), startedOver]).toEqual([undefined, 2, 1]);
    registry.forgetEverything('index');
    expect([b.peek('k'), startedOver]).toEqual([undefined, 1]);
  });
});
