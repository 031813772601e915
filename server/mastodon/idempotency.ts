/**
 * `Idempotency-Key` on status creation: an app that retries a post (a timeout, a flaky network)
 * with the same key gets the first answer back instead of a second post, for an hour, as Mastodon
 * does. A retry on the same instance gets the first call's own answer; with several instances
 * (`REDIS_URL`) the key is claimed in Redis, and a retry that reaches another instance waits for
 * the first call and answers the status it made, read again. While Redis does not answer, each
 * instance remembers its own calls.
 */
import type { Redis } from 'ioredis';
import { setBounded } from '../cache/bounded';
import { ConflictError } from '../domain/errors';
import type { RedisFallback } from '../instance/redisFallback';

const KEEP_MS = 60 * 60 * 1000;
const MAX_KEYS = 10_000;
/** How often a retry on another instance looks whether the first call is done, and for how long. */
const POLL_MS = 50;
const WAIT_MS = 30_000;

/** What the first call made: its status's id, by which a retry elsewhere reads the status again. */
export interface IdempotentCall<T> {
  call: () => Promise<T>;
  idOf: (answer: T) => string;
  again: (id: string) => Promise<T>;
}

export type IdempotentCalls = <T>(userId: string, key: string | undefined, call: IdempotentCall<T>) => Promise<T>;

const keyOf = (userId: string, key: string) => `${userId}\n${key.slice(0, 200)}`;

/** The calls this process made, by user and key. */
export function idempotentCalls(): IdempotentCalls {
  const calls = new Map<string, { until: number; answer: Promise<unknown> }>();
  return function once<T>(userId: string, key: string | undefined, { call }: IdempotentCall<T>): Promise<T> {
    if (!key) return call();
    const id = keyOf(userId, key);
    const now = Date.now();
    const kept = calls.get(id);
    if (kept && kept.until > now) return kept.answer as Promise<T>;
    const answer = call();
    setBounded(calls, id, { until: now + KEEP_MS, answer }, MAX_KEYS);
    // A refusal is not remembered: the app may fix the request and send it again with the same key.
    answer.catch(() => calls.delete(id));
    return answer;
  };
}

/** Claimed in Redis first: an empty value while the first call runs, then its status's id. */
export function sharedIdempotentCalls(redis: Redis, fallback: RedisFallback): IdempotentCalls {
  const local = idempotentCalls();
  /** A Redis step, or `away` while Redis does not answer (the call then goes on in this process alone). */
  const away = Symbol('away');
  const step = <T>(inRedis: () => Promise<T>) => fallback.orLocally<T | typeof away>(inRedis, async () => away);

  async function shared<T>(userId: string, key: string, { call, idOf, again }: IdempotentCall<T>): Promise<T> {
    const at = `posts:idempotency:${keyOf(userId, key)}`;
    for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline;) {
      const claimed = await step(() => redis.set(at, '', 'PX', KEEP_MS, 'NX'));
      if (claimed === away) return call();
      if (claimed === 'OK') {
        const answer = await call().catch(async (error: unknown) => {
          // Refused: the key is free again, as in `idempotentCalls`.
          await step(() => redis.del(at));
          throw error;
        });
        await step(() => redis.set(at, idOf(answer), 'KEEPTTL', 'XX'));
        return answer;
      }
      const made = await step(() => redis.get(at));
      if (made === away) return call();
      if (made) return again(made);
      // Still running elsewhere (empty), or refused and released (null): look again.
      if (made === '') await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new ConflictError(
      'A request with this Idempotency-Key is still being processed: try again in a moment',
      'IdempotencyKeyInUse',
    );
  }

  return function once<T>(userId: string, key: string | undefined, call: IdempotentCall<T>): Promise<T> {
    if (!key) return call.call();
    // The same instance's retry shares the first call's answer; the first call claims the key in Redis.
    return local(userId, key, { ...call, call: () => shared(userId, key, call) });
  };
}
