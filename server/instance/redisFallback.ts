/**
 * Redis carries rate-limit counts, sign-in lockouts and the bus's messages, never data: while it
 * does not answer, the instance keeps serving (issue 36). `orLocally` runs a step in Redis while its
 * connection is ready and in this process otherwise (or when Redis fails it), without waiting on
 * ioredis's reconnection, which made every write and sign-in wait 1-5 s and then answer 500. The
 * outage is logged once, and its end.
 */
import type { Redis } from 'ioredis';

export interface RedisFallback {
  /** Whether Redis's connection is up now. */
  answers(): boolean;
  /** Resolves once the first connection attempt has succeeded or failed (start-up waits for it). */
  connected(): Promise<void>;
  /** `inRedis` while Redis answers; `locally` while it does not, or when `inRedis` fails. */
  orLocally<T>(inRedis: () => Promise<T>, locally: () => Promise<T>): Promise<T>;
}

export interface FallbackLog {
  warn(obj: unknown, message?: string): void;
  info(obj: unknown, message?: string): void;
}

export function redisFallback(redis: Redis, log: FallbackLog): RedisFallback {
  let away = false;
  const lost = (error?: unknown) => {
    if (away) return;
    away = true;
    log.warn(
      { err: error },
      'Redis is not answering: rate limits and sign-in lockouts count in this process, bus messages wait for it',
    );
  };
  redis.on('reconnecting', () => lost());
  // Each failed reconnection is an error event: the outage's first is logged above, not every one.
  redis.on('error', (error) => lost(error));
  redis.on('ready', () => {
    if (!away) return;
    away = false;
    log.info({}, 'Redis answers again: rate limits, lockouts and the bus use it again');
  });
  const answers = () => redis.status === 'ready';
  const firstAttempt = new Promise<void>((resolve) => {
    if (answers()) resolve();
    for (const event of ['ready', 'error', 'end']) redis.once(event, () => resolve());
  });
  return {
    answers,
    connected: () => firstAttempt,
    async orLocally(inRedis, locally) {
      if (!answers()) return locally();
      try {
        return await inRedis();
      } catch (error) {
        lost(error);
        return locally();
      }
    },
  };
}
