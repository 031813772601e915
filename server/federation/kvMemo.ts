/**
 * Some of Fedify's key–value entries kept in memory too (issue 32): the public keys of people
 * elsewhere, which Fedify reads from the store on every signed activity it checks. Only values
 * found are kept (a missing or `null` entry is read again), at most `max` of them, each for
 * `ttlMs`: another instance that replaces a key in the shared store is seen at the latest then.
 * A key that changed elsewhere fails its first check and Fedify fetches it again and sets it
 * here, which replaces the kept one at once (as a delete or a swap does).
 */
import type { KvKey, KvStore } from '@fedify/fedify';

export interface KvMemoOptions {
  /** Entries under these prefixes are kept. */
  prefixes: KvKey[];
  max: number;
  ttlMs: number;
  now?: () => number;
}

export function memoizedKv<S extends KvStore>(store: S, options: KvMemoOptions): S {
  const { prefixes, max, ttlMs, now = Date.now } = options;
  const kept = new Map<string, { value: unknown; until: number }>();
  // Bumped before and after every write of a kept prefix: a read that overlapped one keeps nothing.
  let writes = 0;

  const isKept = (key: KvKey) => prefixes.some((prefix) => prefix.every((part, i) => key[i] === part));

  async function write<T>(key: KvKey, work: () => Promise<T>): Promise<T> {
    if (!isKept(key)) return work();
    writes++;
    kept.delete(JSON.stringify(key));
    try {
      return await work();
    } finally {
      writes++;
      kept.delete(JSON.stringify(key));
    }
  }

  return {
    ...store,
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      if (!isKept(key)) return store.get<T>(key);
      const encoded = JSON.stringify(key);
      const entry = kept.get(encoded);
      if (entry && entry.until > now()) {
        // Most recently used last: the first entry is the one dropped when full.
        kept.delete(encoded);
        kept.set(encoded, entry);
        return entry.value as T;
      }
      kept.delete(encoded);
      const before = writes;
      const value = await store.get<T>(key);
      if (value !== undefined && value !== null && writes === before) {
        kept.set(encoded, { value, until: now() + ttlMs });
        if (kept.size > max) kept.delete(kept.keys().next().value!);
      }
      return value;
    },
    set: (key, value, setOptions) => write(key, () => store.set(key, value, setOptions)),
    delete: (key) => write(key, () => store.delete(key)),
    ...(store.cas
      ? { cas: (key, expected, value, casOptions) => write(key, () => store.cas!(key, expected, value, casOptions)) }
      : {}),
  } as S;
}
