/**
 * Authors' public facts (name, pictures, description, counts), kept in memory for the lists that
 * write an author beside each item (the client API's statuses): a page of twelve statuses asked
 * the database for its authors every time; and, with their suspension, for profiles. The events
 * that change a person's facts forget them on every instance (`cache/invalidation.ts`); `ttlMs`
 * bounds changes no event carried.
 */
import { setFresh } from '../cache/bounded';
import { expiresAt } from '../cache/expiry';
import { type CountedCache, cacheCounts } from '../cache/counts';
import type { UserRow } from '../db/schema';
import { type AuthorFacts, toAuthorFacts } from './mappers';

/** A person as a profile needs them: their facts, and whether they are suspended (then nobody else sees them). */
export interface KeptPerson {
  facts: AuthorFacts;
  suspendedAt: string | null;
}

export interface AuthorCache extends CountedCache {
  /** The facts of the people named (lower-cased usernames); the missing ones read in one statement. */
  named(keys: readonly string[]): Promise<Map<string, AuthorFacts>>;
  /** One person (lower-cased username), read when not kept; undefined for no such person. */
  person(key: string): Promise<KeptPerson | undefined>;
  /** The kept facts of one person (lower-cased username) while they hold, else undefined; reads nothing. */
  kept(key: string): AuthorFacts | undefined;
  /** The person's facts changed: their name, profile, counts, suspension. */
  forget(userId: string): void;
  /** Everyone's (`cache/outsideWrites.ts`; a deleted account changes the counts of all they followed). */
  forgetAll(): void;
}

export function authorCache(
  read: (keys: string[]) => Promise<UserRow[]>,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): AuthorCache {
  const byKey = new Map<string, KeptPerson & { until: number }>();
  /** A person's key by id: an event names the id, and a rename changes the key. */
  const keyOf = new Map<string, string>();
  // Bumped by every forget: facts read while one happened may be stale, and are not kept.
  let forgets = 0;
  const counts = cacheCounts();

  /** The people named, kept or read (the missing ones in one statement). */
  async function people(keys: readonly string[]): Promise<Map<string, KeptPerson>> {
    const now = Date.now();
    const found = new Map<string, KeptPerson>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const entry = byKey.get(key);
      if (entry && entry.until > now) found.set(key, entry);
      else missing.push(key);
    }
    counts.hits += found.size;
    counts.misses += missing.length;
    if (missing.length === 0) return found;
    const seen = forgets;
    const rows = await read(missing);
    // Read together, read again together.
    const until = expiresAt(now, ttlMs);
    for (const row of rows) {
      const person = { facts: toAuthorFacts(row), suspendedAt: row.suspended_at };
      found.set(row.username_lower, person);
      if (seen !== forgets) continue;
      setFresh(byKey, row.username_lower, { ...person, until }, max, now, counts);
      keyOf.set(row.id, row.username_lower);
    }
    // The id index follows the kept facts' size: ids of facts pushed out are dropped with it.
    if (keyOf.size > 2 * max) for (const [id, key] of keyOf) if (!byKey.has(key)) keyOf.delete(id);
    return found;
  }

  return {
    counts,
    size: () => byKey.size,
    async named(keys) {
      const found = new Map<string, AuthorFacts>();
      for (const [key, person] of await people(keys)) found.set(key, person.facts);
      return found;
    },
    async person(key) {
      return (await people([key])).get(key);
    },
    kept(key) {
      const entry = byKey.get(key);
      return entry && entry.until > Date.now() ? entry.facts : undefined;
    },
    forget(userId) {
      forgets++;
      const key = keyOf.get(userId);
      if (key === undefined) return;
      keyOf.delete(userId);
      byKey.delete(key);
    },
    forgetAll() {
      forgets++;
      keyOf.clear();
      byKey.clear();
    },
  };
}
