/**
 * Public keys of people elsewhere kept in memory in front of Fedify's store
 * (server/federation/kvMemo.ts): each way a kept entry is dropped — a set, a delete, a swap, a
 * write while it was being read, its time running out (another instance's write), the bound —
 * and entries outside the prefix never kept. On the app's database (SQLite or PostgreSQL); the
 * clock is the test's own.
 */
import type { KvKey, KvStore } from '@fedify/fedify';
import { kyselyKvStore } from '../../server/federation/kvStore';
import { memoizedKv } from '../../server/federation/kvMemo';
import { type TestApp, createTestApp } from './helpers';

let t: TestApp;
let clock = Date.parse('2026-11-27T05:00:00Z');
const now = () => clock;
const TTL = 60_000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.db.kysely.deleteFrom('federation_kv').execute();
});

const PREFIX: KvKey = ['_fedify', 'publicKey'];
const keyOf = (n: number): KvKey => [...PREFIX, `https://elsewhere.example/users/${n}#main-key`];
const key = keyOf(1);

/** The store of this instance, memoized, and the same table as another instance writes it. */
function stores(max = 100) {
  const shared = kyselyKvStore(t.db.kysely, now);
  let reads = 0;
  const counted: KvStore = {
    ...shared,
    get: (k) => {
      reads++;
      return shared.get(k);
    },
  };
  return { memo: memoizedKv(counted, { prefixes: [PREFIX], max, ttlMs: TTL, now }), other: shared, reads: () => reads };
}

describe('public keys kept in memory', () => {
  it('reads a kept key once', async () => {
    const { memo, other, reads } = stores();
    await other.set(key, { pem: 'A' });
    expect(await memo.get(key)).toEqual({ pem: 'A' });
    expect(await memo.get(key)).toEqual({ pem: 'A' });
    expect(reads()).toBe(1);
  });

  it('sees a key another instance replaced once its time runs out', async () => {
    const { memo, other } = stores();
    await other.set(key, { pem: 'A' });
    expect(await memo.get(key)).toEqual({ pem: 'A' });
    await other.set(key, { pem: 'B' });
    expect(await memo.get(key)).toEqual({ pem: 'A' });
    clock += TTL;
    expect(await memo.get(key)).toEqual({ pem: 'B' });
  });

  it('drops a kept key when it is set (Fedify fetched it again), deleted or swapped', async () => {
    const { memo } = stores();
    await memo.set(key, { pem: 'A' });
    expect(await memo.get(key)).toEqual({ pem: 'A' });
    await memo.set(key, { pem: 'B' });
    expect(await memo.get(key)).toEqual({ pem: 'B' });
    await memo.delete(key);
    expect(await memo.get(key)).toBeUndefined();
    await memo.set(key, { pem: 'C' });
    expect(await memo.get(key)).toEqual({ pem: 'C' });
    expect(await memo.cas!(key, { pem: 'C' }, { pem: 'D' })).toBe(true);
    expect(await memo.get(key)).toEqual({ pem: 'D' });
  });

  it('keeps nothing read while the key was being written', async () => {
    const shared = kyselyKvStore(t.db.kysely, now);
    await shared.set(key, { pem: 'A' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The read answers the old value only after the new one is written.
    const slow: KvStore = {
      ...shared,
      async get<T = unknown>(k: KvKey): Promise<T | undefined> {
        const value = await shared.get<T>(k);
        await held;
        return value;
      },
    };
    const memo = memoizedKv(slow, { prefixes: [PREFIX], max: 100, ttlMs: TTL, now });
    const reading = memo.get(key);
    await memo.set(key, { pem: 'B' });
    release();
    expect(await reading).toEqual({ pem: 'A' });
    expect(await memo.get(key)).toEqual({ pem: 'B' });
  });

  it('keeps at most `max` keys, dropping the least recently read', async () => {
    const { memo, other, reads } = stores(2);
    for (const n of [1, 2, 3]) await other.set(keyOf(n), { pem: String(n) });
    await memo.get(keyOf(1));
    await memo.get(keyOf(2));
    await memo.get(keyOf(1));
    await memo.get(keyOf(3)); // drops 2, read longest ago
    expect(reads()).toBe(3);
    await memo.get(keyOf(1));
    await memo.get(keyOf(3));
    expect(reads()).toBe(3);
    await memo.get(keyOf(2));
    expect(reads()).toBe(4);
  });

  it('keeps neither missing nor null keys, nor anything outside its prefixes', async () => {
    const { memo, other, reads } = stores();
    expect(await memo.get(key)).toBeUndefined();
    await other.set(key, null);
    expect(await memo.get(key)).toBeNull();
    await other.set(key, { pem: 'A' });
    expect(await memo.get(key)).toEqual({ pem: 'A' });
    expect(reads()).toBe(3);
    const idempotence: KvKey = ['_fedify', 'activityIdempotence', 'x'];
    await other.set(idempotence, true);
    expect(await memo.get(idempotence)).toBe(true);
    await other.delete(idempotence);
    expect(await memo.get(idempotence)).toBeUndefined();
  });
});
