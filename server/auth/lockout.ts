/**
 * Wrong sign-in guesses per account (or per known device): past `maxFailures` within a window
 * the key is locked for a time that doubles with each lockout (1 minute, 2, 4... up to an hour),
 * and forgotten after a day without one. Kept in Redis when several instances share the counts,
 * else in this process.
 *
 * An attempt is reserved before it is checked (issue 36): checking the lock, then the password,
 * then counting let 95 concurrent guesses all be checked where 10 should. The attempts in flight
 * count against what is left of the window, so at most `maxFailures` wrong ones are ever checked.
 */
import type { Redis } from 'ioredis';
import { TooManyAttemptsError } from '../domain/errors';
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
  /**
   * Takes one attempt for `key`: the milliseconds to wait when it is locked, or when the attempts
   * in flight already fill what is left before the lock; else 0, and `settle` must follow once.
   */
  reserve(key: string): Promise<number>;
  /** Ends a reserved attempt; a wrong one counts toward the lock. */
  settle(key: string, wrong: boolean): Promise<void>;
}

export const tooManyWrongPasswords = (seconds: number) =>
  `Too many wrong passwords for this account, try again in ${seconds} seconds`;

/** Refused because the attempts left are all being checked: they end within a second or so. */
const IN_FLIGHT_WAIT_MS = 1000;

/**
 * Runs `check` (true: right) as one reserved attempt of `key`; throws TooManyAttemptsError with
 * `tooMany(seconds)` when no attempt may be made now. A check that throws counts as no guess.
 */
export async function guardedAttempt(
  lockout: Lockout,
  key: string,
  tooMany: (seconds: number) => string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const waitMs = await lockout.reserve(key);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new TooManyAttemptsError(tooMany(seconds), seconds);
  }
  let wrong = false;
  try {
    wrong = !(await check());
    return !wrong;
  } finally {
    await lockout.settle(key, wrong);
  }
}

const defaults = { windowMs: 60_000, baseLockMs: 60_000, maxLockMs: 3_600_000, memoryMs: 86_400_000 };

const lockMs = (lockouts: number, o: typeof defaults) => Math.min(o.baseLockMs * 2 ** (lockouts - 1), o.maxLockMs);

interface Entry {
  failures: number;
  windowEnds: number;
  lockouts: number;
  lockedUntil: number;
  forgetAt: number;
  inFlight: number;
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
  const windowOf = (key: string, at: number): Entry => {
    let entry = entryOf(key, at);
    if (!entry) {
      if (entries.size >= MEMORY_KEYS_MAX) entries.delete(entries.keys().next().value!);
      entry = { failures: 0, windowEnds: at + o.windowMs, lockouts: 0, lockedUntil: 0, forgetAt: 0, inFlight: 0 };
      entries.set(key, entry);
    }
    if (entry.windowEnds <= at) Object.assign(entry, { failures: 0, windowEnds: at + o.windowMs });
    entry.forgetAt = Math.max(entry.forgetAt, entry.windowEnds);
    return entry;
  };
  return {
    async reserve(key) {
      const at = now();
      const entry = windowOf(key, at);
      if (entry.lockedUntil > at) return entry.lockedUntil - at;
      if (entry.failures + entry.inFlight >= o.maxFailures) return IN_FLIGHT_WAIT_MS;
      entry.inFlight += 1;
      return 0;
    },
    async settle(key, wrong) {
      const at = now();
      const entry = windowOf(key, at);
      entry.inFlight = Math.max(0, entry.inFlight - 1);
      if (!wrong) return;
      entry.failures += 1;
      if (entry.failures >= o.maxFailures) {
        entry.lockouts += 1;
        entry.lockedUntil = at + lockMs(entry.lockouts, o);
        entry.failures = 0;
        entry.forgetAt = entry.lockedUntil + o.memoryMs;
      }
    },
  };
}

/**
 * KEYS: lock, failures, in flight; ARGV: max failures, window (ms), wait when full (ms). The
 * in-flight count expires with the window, so attempts of a process that died are not held for ever.
 */
const RESERVE = `
local locked = redis.call('PTTL', KEYS[1])
if locked > 0 then return locked end
local failures = tonumber(redis.call('GET', KEYS[2]) or '0')
local inFlight = tonumber(redis.call('GET', KEYS[3]) or '0')
if failures + inFlight >= tonumber(ARGV[1]) then return tonumber(ARGV[3]) end
redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return 0
`;

export function redisLockout(redis: Redis, options: LockoutOptions): Lockout {
  const o = { ...defaults, ...options };
  const keys = (key: string) => ({
    failures: `lockout:failures:${key}`,
    lockouts: `lockout:count:${key}`,
    lock: `lockout:lock:${key}`,
    inFlight: `lockout:inflight:${key}`,
  });
  async function countFailure(k: ReturnType<typeof keys>): Promise<void> {
    const failures = await redis.incr(k.failures);
    if (failures === 1) await redis.pexpire(k.failures, o.windowMs);
    if (failures < o.maxFailures) return;
    const lockouts = await redis.incr(k.lockouts);
    await redis.pexpire(k.lockouts, o.memoryMs);
    await redis.set(k.lock, '1', 'PX', lockMs(lockouts, o));
    await redis.del(k.failures);
  }
  return {
    async reserve(key) {
      const k = keys(key);
      // One script: every instance's attempts are taken one at a time.
      const wait = await redis.eval(
        RESERVE,
        3,
        k.lock,
        k.failures,
        k.inFlight,
        o.maxFailures,
        o.windowMs,
        IN_FLIGHT_WAIT_MS,
      );
      return Number(wait);
    },
    async settle(key, wrong) {
      const k = keys(key);
      // The failure (and the lock) first, then the attempt leaves the flight: in between, the two
      // counts overstate what was used, never understate it, so no reservation slips through.
      if (wrong) await countFailure(k);
      if ((await redis.decr(k.inFlight)) < 0) await redis.del(k.inFlight);
    },
  };
}

/** In Redis while it answers, in this process while it does not (`instance/redisFallback.ts`). */
export function redisOrMemoryLockout(redis: Redis, fallback: RedisFallback, options: LockoutOptions): Lockout {
  const inRedis = redisLockout(redis, options);
  const locally = memoryLockout(options);
  return {
    reserve: (key) =>
      fallback.orLocally(
        () => inRedis.reserve(key),
        () => locally.reserve(key),
      ),
    // An attempt reserved in Redis and settled here (Redis went away in between) leaves Redis's
    // reservation to expire with its window.
    settle: (key, wrong) =>
      fallback.orLocally(
        () => inRedis.settle(key, wrong),
        () => locally.settle(key, wrong),
      ),
  };
}
