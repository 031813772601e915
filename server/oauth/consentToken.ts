/**
 * The consent form's CSRF token: an HMAC of the session and the app, written into the form the
 * consent page renders and checked (in constant time) when the form comes back. Browsers post that
 * form with `Origin: null` (the page is `Referrer-Policy: no-referrer`), so the Origin check alone
 * cannot tell this site's form from another site's; the token can, in every browser.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The form's address: the Origin check lets `Origin: null` through to its route, which wants the token. */
export const CONSENT_FORM_PATH = '/oauth/authorize';

/** The hidden field that carries the token. */
export const CONSENT_TOKEN_FIELD = 'consent_token';

export function consentTokens(secret: string) {
  // A key of its own, so a token is never a value signed for anything else with the same secret.
  const key = createHmac('sha256', secret).update('posts:oauth-consent-form').digest();
  const tokenFor = (sessionId: string, clientId: string) =>
    createHmac('sha256', key).update(`${sessionId}\n${clientId}`).digest('base64url');

  return {
    tokenFor,
    /** Whether `token` is the one this session's consent page for this app carried. */
    matches(token: unknown, sessionId: string, clientId: string): boolean {
      if (typeof token !== 'string') return false;
      const expected = Buffer.from(tokenFor(sessionId, clientId));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
