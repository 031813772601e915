/** Access tokens (HS256 JWT, 15 minutes) and opaque refresh tokens (stored only as a SHA-256 hash). */
import { createHash, randomBytes } from 'node:crypto';
import { createDecoder, createSigner, createVerifier } from 'fast-jwt';

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface AccessClaims {
  sub: string;
  sid: string;
  typ: 'access';
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export interface AccessTokens {
  sign(claims: { userId: string; sessionId: string }): string;
  /** Returns the claims, or null for anything not a valid, unexpired access token of this server. */
  verify(token: string): AccessClaims | null;
}

const decodeUnchecked = createDecoder();

/**
 * Whether the token's own `exp` has passed, read without checking its signature: only ever a
 * reason to refuse it sooner. A browser back after a while sends its expired token until it
 * refreshes; the verifier would check the signature and then throw (a stack trace each), several
 * times what a signed-in request costs (docs/benchmarks/log/2026-11-29.md, "Where a cached read's time goes").
 */
function saysExpired(token: string, nowMs: number): boolean {
  try {
    const { exp } = decodeUnchecked(token) as { exp?: unknown };
    // The verifier's own rule: valid while now <= exp.
    return typeof exp === 'number' && nowMs > exp * 1000;
  } catch {
    return false;
  }
}

export function accessTokens(secret: string): AccessTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_MS });
  // Only HS256 is accepted: `alg: none` and any other algorithm are refused by the verifier.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp', 'sub', 'sid', 'typ'] });
  return {
    sign: ({ userId, sessionId }) => signer({ sub: userId, sid: sessionId, typ: 'access' }),
    verify(token) {
      if (saysExpired(token, Date.now())) return null;
      try {
        const claims = verifier(token) as Partial<AccessClaims>;
        if (
          claims.typ !== 'access' ||
          typeof claims.sub !== 'string' ||
          typeof claims.sid !== 'string' ||
          typeof claims.exp !== 'number'
        )
          return null;
        return claims as AccessClaims;
      } catch {
        return null;
      }
    },
  };
}

export const newRefreshToken = (): string => randomBytes(32).toString('base64url');
export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');
