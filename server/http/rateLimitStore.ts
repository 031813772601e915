/**
 * The rate limits' counts in Redis while it answers, in this process while it does not
 * (`instance/redisFallback.ts`): during an outage each instance counts alone, so a client spread
 * over N instances may get up to N times its limit until Redis is back.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { RedisFallback } from '../instance/redisFallback';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;
interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: object): Store;
}
interface StoreParams {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
}

// The plugin's own two stores (CommonJS, without types of their own).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
) => Store;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => Store;

const counted = (store: Store, key: string, timeWindow: number, max: number) =>
  new Promise<Counted>((resolve, reject) =>
    store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), timeWindow, max),
  );

/** The store class for `@fastify/rate-limit`'s `store` option. */
export function redisOrLocalStore(redis: Redis, fallback: RedisFallback): FastifyRateLimitStoreCtor {
  class RedisOrLocalStore implements Store {
    constructor(
      params: StoreParams,
      private readonly inRedis = new RedisStore(params.continueExceeding, params.exponentialBackoff, redis),
      private readonly locally = new LocalStore(params.continueExceeding, params.exponentialBackoff),
    ) {}

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      fallback
        .orLocally(
          () => counted(this.inRedis, key, timeWindow, max),
          () => counted(this.locally, key, timeWindow, max),
        )
        .then((result) => callback(null, result), callback);
    }

    child(routeOptions: StoreParams): Store {
      return new RedisOrLocalStore(routeOptions, this.inRedis.child(routeOptions), this.locally.child(routeOptions));
    }
  }
  // The plugin hands the constructor its merged options, which carry the two flags read here.
  return RedisOrLocalStore as unknown as FastifyRateLimitStoreCtor;
}
