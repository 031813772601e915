/**
 * Wrong sign-in guesses per account (or per known device): past `maxFailures` within a window
 * the key is locked for a time that doubles with each lockout (1 minute, 2, 4... up to an hour),
 * and forgotten after a day without one. Kept in Redis when several instances share the counts,
 * else in this process.
 */
import type { Redis } from 'ioredis';
import type { RedisFallback } from '../instance/redisFallback';

export interface LockoutOptions {
  maxFailures: number;
  windowMs?: number;
  baseLockMs?: number;
  maxLockMs?: number;
  /** How long lockouts are remembered for the doubling. */
  memoryMs?: number;
  now?: () => number;
}

export interface Lockout {
  /** Milliseconds until `key` may try again; 0 when it may now. */
  lockedForMs(key: string): Promise<number>;
  /** Counts one wrong guess for `key`. */
  fail(key: string): Promise<void>;
}

const defaults = { windowMs: 60_000, baseLockMs: 60_000, maxLockMs: 3_600_000, memoryMs: 86_400_000 };

const lockMs = (lockouts: number, o: typeof defaults) => Math.min(o.baseLockMs * 2 ** (lockouts - 1), o.maxLockMs);

interface Entry {
  failures: number;
  windowEnds: number;
  lockouts: number;
  lockedUntil: number;
  forgetAt: number;
}

/** Most keys kept in memory; the oldest go first (an attacker inventing emails cannot grow it for ever). */
const MEMORY_KEYS_MAX = 100_000;

export function memoryLockout(options: LockoutOptions): Lockout {
  const o = { ...defaults, ...options };
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const entryOf = (key: string, at: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.forgetAt <= at) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async lockedForMs(key) {
      const at = now();
      return Math.max(0, (entryOf(key, at)?.lockedUntil ?? 0) - at);
    },
    async fail(key) {
      const at = now();
      let entry = entryOf(key, at);
      if (!entry) {
        if (entries.size >= MEMORY_KEYS_MAX) entries.delete(entries.keys().next().value!);
        entry = { failures: 0, windowEnds: at + o.windowMs, lockouts: 0, lockedUntil: 0, forgetAt: 0 };
        entries.set(key, entry);
      }
      if (entry.windowEnds <= at) Object.assign(entry, { failures: 0, windowEnds: at + o.windowMs });
      entry.failures += 1;
      entry.forgetAt = Math.max(entry.forgetAt, entry.windowEnds);
      if (entry.failures >= o.maxFailures) {
        entry.lockouts += 1;
        entry.lockedUntil = at + lockMs(entry.lockouts, o);
        entry.failures = 0;
        entry.forgetAt = entry.lockedUntil + o.memoryMs;
      }
    },
  };
}

export function redisLockout(redis: Redis, options: LockoutOptions): Lockout {
  const o = { ...defaults, ...options };
  const keys = (key: string) => ({
    failures: `lockout:failures:${key}`,
    lockouts: `lockout:count:${key}`,
    lock: `lockout:lock:${key}`,
  });
  return {
    async lockedForMs(key) {
      return Math.max(0, await redis.pttl(keys(key).lock));
    },
    async fail(key) {
      const k = keys(key);
      const failures = await redis.incr(k.failures);
      if (failures === 1) await redis.pexpire(k.failures, o.windowMs);
      if (failures < o.maxFailures) return;
      const lockouts = await redis.incr(k.lockouts);
      await redis.pexpire(k.lockouts, o.memoryMs);
      await redis.set(k.lock, '1', 'PX', lockMs(lockouts, o));
      await redis.del(k.failures);
    },
  };
}

/** In Redis while it answers, in this process while it does not (`instance/redisFallback.ts`). */
export function redisOrMemoryLockout(redis: Redis, fallback: RedisFallback, options: LockoutOptions): Lockout {
  const inRedis = redisLockout(redis, options);
  const locally = memoryLockout(options);
  return {
    lockedForMs: (key) =>
      fallback.orLocally(
        () => inRedis.lockedForMs(key),
        () => locally.lockedForMs(key),
      ),
    fail: (key) =>
      fallback.orLocally(
        () => inRedis.fail(key),
        () => locally.fail(key),
      ),
  };
}
