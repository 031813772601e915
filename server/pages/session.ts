/**
 * Who is asking for a private page: decided from the session cookies only, with the API's own
 * check (auth.authenticate), never from anything the page or a header claims.
 *
 * A lapsed access token with a refresh cookie is renewed here, as `GET /api/auth/getLoggedUser`
 * does, so a returning member gets a server-rendered page and fresh cookies in one trip. When that
 * renewal fails the page is rendered as the client shell instead of redirecting: the browser's
 * own lookup then decides, as before. That keeps two tabs loading at once safe (the loser of the
 * refresh race gets the shell, and by its lookup the winner's cookies) and costs a revoked-session
 * holder one extra request before the client's guard sends them to `/`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_COOKIE, REFRESH_COOKIE, sessionCookies } from '../auth/cookies';
import type { AuthService } from '../auth/service';
import type { Config } from '../config';
import { rateLimit } from '../http/rateLimits';

export type PageViewer =
  | { kind: 'signedIn'; accessToken: string }
  /** No session cookie at all: redirect to `/`. */
  | { kind: 'visitor' }
  /** A refresh cookie that did not renew here: let the browser's lookup decide. */
  | { kind: 'undecided' };

export function pageSessions(
  app: FastifyInstance,
  { auth, config }: { auth: Pick<AuthService, 'authenticate' | 'refresh'>; config: Config },
) {
  // Renewing from a page is as much a refresh as POST /api/auth/refresh: the same per-IP limit.
  const perIp = rateLimit(app, 'page-refresh-ip', config.rateLimits.authPerIpPerMinute, (r) => r.ip);

  return async function pageViewer(request: FastifyRequest, reply: FastifyReply): Promise<PageViewer> {
    const access = request.cookies[ACCESS_COOKIE];
    if (access && (await auth.authenticate(access))) return { kind: 'signedIn', accessToken: access };
    const refresh = request.cookies[REFRESH_COOKIE];
    if (!refresh) return { kind: 'visitor' };
    try {
      await perIp(request);
      const tokens = await auth.refresh(refresh);
      // Next.js writes the page on the raw response, past the hook that would write
      // reply.setCookie's cookies: serialize them into the header here.
      reply.header(
        'Set-Cookie',
        sessionCookies(config.secureCookies, tokens).map((c) => app.serializeCookie(c.name, c.value, c.options)),
      );
      return { kind: 'signedIn', accessToken: tokens.access };
    } catch {
      return { kind: 'undecided' };
    }
  };
}
