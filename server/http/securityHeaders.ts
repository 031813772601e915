/**
 * Security headers (helmet's) on every response. @fastify/helmet rebuilds helmet's middleware,
 * directives included, on every request; the headers never change while the process runs, so
 * helmet computes them once here and each request only copies them.
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

export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, next) => {
    reply.headers(headers);
    next();
  });
}
