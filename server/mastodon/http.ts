/**
 * The client API's HTTP conventions, apart from `/api/*`'s: bearer tokens instead of cookies,
 * CORS for browser apps, bodies as JSON, form or multipart, errors as `{ error }`, scopes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BearerAuth } from '../oauth/service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's bearer token (client API paths only), or null. */
    bearer: BearerAuth | null;
  }
}

const TOKEN_ENDPOINTS = new Set(['/oauth/token', '/oauth/revoke']);

/** A request's path, without its query. */
export const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/**
 * Paths of the client API: identity comes from the bearer token only, never a cookie, so the
 * cookie's cross-origin check does not apply and browser apps on other origins may call them.
 */
export function isClientApiPath(url: string): boolean {
  return url.startsWith('/api/v1/') || url.startsWith('/api/v2/') || TOKEN_ENDPOINTS.has(pathOf(url));
}

/** Mastodon apps add slashes at the end now and then: `/api/v1/instance/` is `/api/v1/instance`. */
export function withoutTrailingSlash(url: string): string {
  if (!url.startsWith('/api/v1/') && !url.startsWith('/api/v2/')) return url;
  const path = pathOf(url);
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') + url.slice(path.length) : url;
}

export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  // The streams' EventSource cannot send headers: Mastodon takes the token from the query there.
  if (!header && request.url.startsWith('/api/v1/streaming')) {
    const token = (request.query as { access_token?: unknown } | undefined)?.access_token;
    return typeof token === 'string' && token ? token : null;
  }
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** What an answer to a browser's cross-origin request carries (no credentials: tokens, not cookies). */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Link, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
};
/** A preflight's answer: what may be sent, and for how long that holds. */
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
  'Access-Control-Max-Age': '86400',
};

/**
 * CORS, and the answer to a preflight. Browsers send `Origin` with every cross-origin request and
 * only they read these headers, so an answer without one is sent without them, as Mastodon's
 * rack-cors does (API answers are `no-store`: no cache hands one to another origin).
 */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS') {
      reply.headers(PREFLIGHT_HEADERS).code(204).send();
      return;
    }
    if (request.headers.origin !== undefined) reply.headers(CORS_HEADERS);
    done();
  });
}

/** Every refusal as Mastodon's `{ error }`, from the API's own `{ message, code }`. */
export function registerClientErrors(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return done(null, payload);
    try {
      const body = JSON.parse(payload) as { message?: unknown; error?: unknown };
      if (typeof body.message === 'string' && body.error === undefined)
        return done(null, JSON.stringify({ error: body.message }));
    } catch {
      // not JSON: left as it is
    }
    done(null, payload);
  });
}

// The scope guard lives in its own module (mutation-tested: docs/architecture.md, "Mutation testing"); its
// names are re-exported here, where the client API's routes have always found them.
export { SCOPE_MISSING, TOKEN_INVALID, USER_REQUIRED, needs } from './scopeGuard';
