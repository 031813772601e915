/**
 * Access tokens this process has recently checked, with the user behind them, so a busy reader
 * does not pay for the signature check and the session lookup on every request
 * (docs/benchmarks/notes.md#caches-and-statements).
 *
 * Only an exact token string that passed both checks is ever found here. Revocations (logout,
 * refresh-token theft, a password change), renames and role changes forget the entries at once: on
 * every instance through the events (`cache/invalidation.ts`) when Redis carries them, else in this
 * process only, and then a revocation made by another instance takes effect here after `ttlMs`.
 */
import { setFresh } from '../cache/bounded';
import { expiresAt } from '../cache/expiry';
import { type CountedCache, cacheCounts } from '../cache/counts';
import type { AuthUser } from '../domain/types';

export interface SessionCache extends CountedCache {
  get(token: string, nowMs: number): AuthUser | undefined;
  /** Counts the forgets so far: read it before looking a session up, and pass it to `set`. */
  forgets(): number;
  /**
   * Keeps the user until `ttlMs` from now, and never past the token's own expiry; not when anything
   * was forgotten since `forgetsSeen` (the lookup may have read the session before its revocation).
   */
  set(token: string, user: AuthUser, tokenExpiresAtMs: number, nowMs: number, forgetsSeen?: number): void;
  forgetSession(sessionId: string): void;
  /** Every cached token of the user, except those of `keepSessionId`. */
  forgetUser(userId: string, keepSessionId?: string): void;
  /** Every entry: sessions may have changed where no event told (`cache/outsideWrites.ts`). */
  forgetAll(): void;
}

interface Entry {
  user: AuthUser;
  until: number;
}

export function sessionCache({ ttlMs, max = 10_000 }: { ttlMs: number; max?: number }): SessionCache {
  // Map keeps insertion order: the first key is the oldest entry, evicted when full.
  const entries = new Map<string, Entry>();
  let forgets = 0;
  const counts = cacheCounts();
  const forgetWhere = (drop: (user: AuthUser) => boolean) => {
    forgets += 1;
    for (const [token, entry] of entries) if (drop(entry.user)) entries.delete(token);
  };
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (entry && entry.until > nowMs) {
        counts.hits++;
        return entry.user;
      }
      counts.misses++;
      if (entry) entries.delete(token);
      return undefined;
    },
    counts,
    size: () => entries.size,
    forgets: () => forgets,
    set(token, user, tokenExpiresAtMs, nowMs, forgetsSeen = forgets) {
      if (ttlMs <= 0 || forgetsSeen !== forgets) return;
      const until = Math.min(expiresAt(nowMs, ttlMs), tokenExpiresAtMs);
      setFresh(entries, token, { user, until }, max, nowMs, counts);
    },
    forgetSession: (sessionId) => forgetWhere((user) => user.sessionId === sessionId),
    forgetUser: (userId, keepSessionId) =>
      forgetWhere((user) => user.id === userId && user.sessionId !== keepSessionId),
    forgetAll() {
      forgets += 1;
      entries.clear();
    },
  };
}
