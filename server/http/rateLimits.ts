/** Named rate limits as preHandlers that answer 429 with Retry-After. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

export interface LimitCheck {
  (request: FastifyRequest): Promise<void>;
  /**
   * The same check, telling the client where it stands in `X-RateLimit-Limit`, `-Remaining` and
   * `-Reset` (an ISO time), on the answer and on the 429: the client API's convention (Mastodon's).
   */
  withHeaders(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * Builds a check for `max` requests a minute (or per `windowMs`) per key. `keyOf` returning null skips the check
 * (e.g. a login body without an email). Keys carry the limit's name so limits never share counts.
 */
export function rateLimit(
  app: FastifyInstance,
  name: string,
  max: number,
  keyOf: (request: FastifyRequest) => string | null,
  windowMs = 60_000,
): LimitCheck {
  const check = app.createRateLimit({
    max,
    timeWindow: windowMs,
    keyGenerator: (request) => `${name}:${keyOf(request) ?? ''}`,
  });

  async function count(request: FastifyRequest, reply: FastifyReply | null): Promise<void> {
    if (keyOf(request) === null) return;
    const limit = await check(request);
    const headers: Record<string, string> = {};
    if (reply && !limit.isAllowed) {
      headers['X-RateLimit-Limit'] = String(limit.max);
      headers['X-RateLimit-Remaining'] = String(Math.max(0, limit.remaining));
      headers['X-RateLimit-Reset'] = new Date(Date.now() + Math.max(0, limit.ttl)).toISOString();
      reply.headers(headers);
    }
    if (!limit.isAllowed && limit.isExceeded) {
      app.ctx.activity.refused(name);
      const seconds = Math.max(1, Math.ceil(limit.ttlInSeconds));
      throw new HttpError(429, 'RateLimited', `Too many requests, try again in ${seconds} seconds`, {
        ...headers,
        'Retry-After': String(seconds),
      });
    }
  }

  return Object.assign((request: FastifyRequest) => count(request, null), {
    withHeaders: (request: FastifyRequest, reply: FastifyReply) => count(request, reply),
  });
}
