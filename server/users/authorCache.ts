/**
 * Authors' public facts (name, pictures, description, counts), kept in memory for the lists that
 * write an author beside each item (the client API's statuses): a page of twelve statuses asked
 * the database for its authors every time; and, with their suspension, for profiles. The events
 * that change a person's facts forget them on every instance (`invalidation/table.ts`); `ttlMs`
 * bounds changes no event carried.
 */
import type { CountedCache } from '../cache/counts';
import type { CacheRegistry } from '../cache/registry';
import type { Audience } from '../../lib/audience';
import type { UserRow } from '../db/schema';
import { type AuthorFacts, toAuthorFacts } from './mappers';

/** A person as a profile needs them: their facts, and whether they are suspended (then nobody else sees them). */
export interface KeptPerson {
  facts: AuthorFacts;
  suspendedAt: string | null;
  /** The account they moved to (issue 76), read with the profile: its name is the target's own now. */
  movedToId: string | null;
  /** The audience their new posts start with (issue 70). */
  defaultAudience: Audience;
}

export interface AuthorCache extends CountedCache {
  /** The facts of the people named (lower-cased usernames); the missing ones read in one statement. */
  named(keys: readonly string[]): Promise<Map<string, AuthorFacts>>;
  /** The people named (lower-cased usernames), with their suspension; the missing ones read in one statement. */
  people(keys: readonly string[]): Promise<Map<string, KeptPerson>>;
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
  caches: CacheRegistry,
  read: (keys: string[]) => Promise<UserRow[]>,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): AuthorCache {
  /** A person's key by id: an event names the id, and a rename changes the key. */
  const keyOf = new Map<string, string>();
  const byKey = caches.keyed<string, KeptPerson>({
    name: 'authors',
    ttlMs,
    max,
    async load(keys) {
      const found = new Map<string, KeptPerson>();
      for (const row of await read(keys)) {
        found.set(row.username_lower, {
          facts: toAuthorFacts(row),
          suspendedAt: row.suspended_at,
          movedToId: row.moved_to_id,
          defaultAudience: row.default_audience,
        });
        keyOf.set(row.id, row.username_lower);
      }
      // The id index follows the kept facts' size: ids of facts pushed out are dropped with it.
      if (keyOf.size > 2 * max) for (const [id, key] of keyOf) if (byKey.peekStale(key) === undefined) keyOf.delete(id);
      return found;
    },
  });

  return {
    counts: byKey.counts,
    size: byKey.size,
    async named(keys) {
      const found = new Map<string, AuthorFacts>();
      for (const [key, person] of await byKey.getMany(keys)) found.set(key, person.facts);
      return found;
    },
    people: (keys) => byKey.getMany(keys),
    person: async (key) => (await byKey.getMany([key])).get(key),
    kept: (key) => byKey.peek(key)?.facts,
    forget(userId) {
      const key = keyOf.get(userId);
      // A read under way may hold the old facts, kept or not: it keeps nothing.
      if (key === undefined) return byKey.changed();
      keyOf.delete(userId);
      byKey.forget(key);
    },
    forgetAll() {
      keyOf.clear();
      byKey.forgetAll();
    },
  };
}
