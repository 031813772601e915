/**
 * Fedify's key–value store on the app's database (SQLite or PostgreSQL), so every instance shares
 * what Fedify keeps there: fetched keys and documents, processed activity ids, its circuit breaker.
 * There is no Fedify 2 package for it (`@fedify/postgres|sqlite` here are 1.8, for Fedify 1.8).
 */
import { isDeepStrictEqual } from 'node:util';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import type { Database, Queryable } from '../db/schema';

const encodeKey = (key: KvKey): string => JSON.stringify(key);

/**
 * A TTL in ms. Fedify's are days, hours or minutes: summed from the fields, as the Temporal
 * polyfill's `total()` costs tens of µs on every write (each activity's idempotency record).
 */
function ttlMs(ttl: NonNullable<KvStoreSetOptions['ttl']>): number {
  if (ttl.years || ttl.months || ttl.weeks) return ttl.total({ unit: 'millisecond' });
  return (
    ttl.days * 86_400_000 +
    ttl.hours * 3_600_000 +
    ttl.minutes * 60_000 +
    ttl.seconds * 1000 +
    ttl.milliseconds +
    ttl.microseconds / 1000 +
    ttl.nanoseconds / 1e6
  );
}

/** The moment a value set now with `options` stops being there (epoch ms), or null for ever. */
function expiresAt(options: KvStoreSetOptions | undefined, now: number): number | null {
  return options?.ttl ? now + ttlMs(options.ttl) : null;
}

/** `LIKE` pattern text for a literal (`\` escapes, with `ESCAPE '\'`). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface KyselyKvStore extends KvStore {
  /** Removes the values whose time ran out (they are already invisible); returns how many. */
  sweep(): Promise<number>;
}

export function kyselyKvStore(db: Kysely<Database>, now: () => number = Date.now): KyselyKvStore {
  async function read(on: Queryable, key: string): Promise<{ value: unknown } | undefined> {
    const row = await on
      .selectFrom('federation_kv')
      .select(['value', 'expires_at'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= now())) return undefined;
    return { value: JSON.parse(row.value) };
  }

  async function write(on: Queryable, key: string, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const row = { key, value: JSON.stringify(value), expires_at: expiresAt(options, now()) };
    await on
      .insertInto('federation_kv')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, expires_at: row.expires_at }))
      .execute();
  }

  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      return (await read(db, encodeKey(key)))?.value as T | undefined;
    },

    set: (key, value, options) => write(db, encodeKey(key), value, options),

    async delete(key) {
      await db.deleteFrom('federation_kv').where('key', '=', encodeKey(key)).execute();
    },

    async cas(key, expectedValue, newValue, options) {
      const encoded = encodeKey(key);
      try {
        return await db.transaction().execute(async (trx) => {
          // PostgreSQL: the row stays locked until the commit, so two swaps cannot both see the old value
          // (SQLite runs one write transaction at a time).
          if (dialectOf(trx) === 'postgres')
            await trx.selectFrom('federation_kv').select('key').where('key', '=', encoded).forUpdate().execute();
          const current = (await read(trx, encoded))?.value;
          if (!isDeepStrictEqual(current, expectedValue)) return false;
          await write(trx, encoded, newValue, options);
          return true;
        });
      } catch (error) {
        // Two swaps of a missing key: the second insert loses.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      let query = db.selectFrom('federation_kv').select(['key', 'value', 'expires_at']);
      if (prefix) {
        const exact = encodeKey(prefix);
        const below = `${likeLiteral(exact.slice(0, -1))},%`;
        query = query.where((eb) => eb.or([eb('key', '=', exact), sql<boolean>`key LIKE ${below} ESCAPE '\\'`]));
      }
      const rows = await query.orderBy('key').execute();
      const at = now();
      for (const row of rows) {
        if (row.expires_at !== null && Number(row.expires_at) <= at) continue;
        const key = JSON.parse(row.key) as KvKey;
        // SQLite's LIKE ignores case: the parts are compared again exactly.
        if (prefix && !prefix.every((part, i) => key[i] === part)) continue;
        yield { key, value: JSON.parse(row.value) };
      }
    },

    async sweep() {
      const result = await db.deleteFrom('federation_kv').where('expires_at', '<=', now()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
