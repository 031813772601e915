/** Named rate limits as preHandlers that answer 429 with Retry-After. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

export type LimitCheck = (request: FastifyRequest) => Promise<void>;

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
  return async (request) => {
    if (keyOf(request) === null) return;
    const limit = await check(request);
    if (!limit.isAllowed && limit.isExceeded) {
      app.ctx.activity.refused(name);
      const seconds = Math.max(1, Math.ceil(limit.ttlInSeconds));
      throw new HttpError(429, 'RateLimited', `Too many requests, try again in ${seconds} seconds`, {
        'Retry-After': String(seconds),
      });
    }
  };
}
