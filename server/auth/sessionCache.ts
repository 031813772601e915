/**
 * Access tokens this process has recently checked, with the user behind them, so a busy reader
 * does not pay for the signature check and the session lookup on every request
 * (docs/benchmarks/notes.md#caches-and-statements).
 *
 * Only an exact token string that passed both checks is ever found here. Revocations (logout,
 * refresh-token theft, a password change), renames and role changes forget the entries at once: on
 * every instance through the events (`server/invalidation/`) when Redis carries them, else in this
 * process only, and then a revocation made by another instance takes effect here after `ttlMs`.
 */
import type { CountedCache } from '../cache/counts';
import type { CacheRegistry } from '../cache/registry';
import type { AuthUser } from '../domain/types';

/** What a check of a token found: its user, and when the token itself runs out. */
export interface CheckedToken {
  user: AuthUser;
  expiresAtMs: number;
}

export interface SessionCache extends CountedCache {
  /** The user of a token checked lately, at once (no promise); undefined when it must be checked. */
  known(token: string): AuthUser | undefined;
  /**
   * Checks a token not known (`check`: the signature, the session) and keeps its user until `ttlMs`
   * from now, never past the token's own expiry, and not when anything was forgotten meanwhile.
   */
  check(token: string, check: () => Promise<CheckedToken | undefined>): Promise<AuthUser | undefined>;
  forgetSession(sessionId: string): void;
  /** Every cached token of the user, except those of `keepSessionId`. */
  forgetUser(userId: string, keepSessionId?: string): void;
}

export function sessionCache(
  caches: CacheRegistry,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): SessionCache {
  const tokens = caches.keyed<string, CheckedToken>({
    name: 'sessions',
    ttlMs,
    max,
    holdsUntil: (checked) => checked.expiresAtMs,
  });
  return {
    counts: tokens.counts,
    size: tokens.size,
    known(token) {
      const checked = tokens.peek(token);
      if (checked) tokens.count(true);
      return checked?.user;
    },
    check: async (token, check) => (await tokens.get(token, check))?.user,
    forgetSession: (sessionId) => tokens.forgetWhere(({ user }) => user.sessionId === sessionId),
    forgetUser: (userId, keepSessionId) =>
      tokens.forgetWhere(({ user }) => user.id === userId && user.sessionId !== keepSessionId),
  };
}
