/**
 * Security headers: helmet's on every page and file, a shorter set on API answers. @fastify/helmet
 * rebuilds helmet's middleware, directives included, on every request; the headers never change
 * while the process runs, so helmet computes them once here and each request only copies them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet would set with these options, lower-cased names. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  // Without per-request nonces helmet finishes synchronously; anything else would need the request.
  if (!done) throw new Error('helmet did not finish synchronously: per-request options are not supported here');
  return headers;
}

/** For answers that depend on the session: no cache may keep or share them. */
export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * An API answer is data, not a document: nothing in it may run, load or be framed, and another
 * site may not embed it. Helmet's other headers only mean something to a document (its CSP's
 * sources, opener, agent cluster, DNS prefetch, old IE and Flash switches), so API answers leave them
 * out (docs/api-decisions.md, "API answers' headers").
 */
const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** JSON under `/api/` (the app's and the client API); `/api/docs` answers the OpenAPI document, JSON too. */
export const isApiPath = (url: string) => url.startsWith('/api/');

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const pageHeaders = helmetHeaders(options);
  const hsts = pageHeaders['strict-transport-security'];
  const apiHeaders = hsts ? { ...API_HEADERS, 'strict-transport-security': hsts } : API_HEADERS;
  app.addHook('onRequest', (request, reply, next) => {
    reply.headers(isApiPath(request.url) ? apiHeaders : pageHeaders);
    next();
  });
}
