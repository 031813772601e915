/**
 * Access tokens this process has recently checked, with the user behind them, so a busy reader
 * does not pay for the signature check and the session lookup on every request
 * (docs/benchmarks.md#caches-and-statements).
 *
 * Only an exact token string that passed both checks is ever found here. Revocations made by this
 * process (logout, refresh-token theft, a password change) and renames forget the entries at once;
 * a revocation made by another instance sharing the database takes effect here after `ttlMs`.
 */
import type { AuthUser } from '../domain/types';

export interface SessionCache {
  get(token: string, nowMs: number): AuthUser | undefined;
  /** Keeps the user until `ttlMs` from now, and never past the token's own expiry. */
  set(token: string, user: AuthUser, tokenExpiresAtMs: number, nowMs: number): void;
  forgetSession(sessionId: string): void;
  /** Every cached token of the user, except those of `keepSessionId`. */
  forgetUser(userId: string, keepSessionId?: string): void;
}

interface Entry {
  user: AuthUser;
  until: number;
}

export function sessionCache({ ttlMs, max = 10_000 }: { ttlMs: number; max?: number }): SessionCache {
  // Map keeps insertion order: the first key is the oldest entry, evicted when full.
  const entries = new Map<string, Entry>();
  const forgetWhere = (drop: (user: AuthUser) => boolean) => {
    for (const [token, entry] of entries) if (drop(entry.user)) entries.delete(token);
  };
  return {
    get(token, nowMs) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.until > nowMs) return entry.user;
      entries.delete(token);
      return undefined;
    },
    set(token, user, tokenExpiresAtMs, nowMs) {
      if (ttlMs <= 0) return;
      if (entries.size >= max && !entries.has(token)) entries.delete(entries.keys().next().value!);
      entries.set(token, { user, until: Math.min(nowMs + ttlMs, tokenExpiresAtMs) });
    },
    forgetSession: (sessionId) => forgetWhere((user) => user.sessionId === sessionId),
    forgetUser: (userId, keepSessionId) =>
      forgetWhere((user) => user.id === userId && user.sessionId !== keepSessionId),
  };
}
