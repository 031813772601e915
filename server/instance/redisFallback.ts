/**
 * Redis carries rate-limit counts, sign-in lockouts and the bus's messages, never data: while it
 * does not answer, the instance keeps serving (issue 36). `orLocally` runs a step in Redis while its
 * connection is ready and in this process otherwise (or when Redis fails it), without waiting on
 * ioredis's reconnection, which made every write and sign-in wait 1-5 s and then answer 500. The
 * outage is logged once, and its end.
 *
 * A Redis that accepts connections but never answers (stopped with SIGSTOP, a full machine, a
 * half-dead network path) keeps the connection "ready" (issue 68, item 35): each command then waits
 * out the client's `commandTimeout` (`REDIS_COMMAND_TIMEOUT_MS`), and the first such timeout marks
 * Redis as away here, so the following steps run locally at once instead of each waiting again.
 * A PING, itself bounded by the same timeout, looks every `PROBE_MS` whether it answers again.
 */
import type { Redis } from 'ioredis';

/** How often a Redis that stopped answering on a ready connection is asked again. */
const PROBE_MS = 2_000;

export type RedisState = 'up' | 'down';

export interface RedisFallback {
  /** Whether Redis answers now: its connection is up, and its last command did not time out. */
  answers(): boolean;
  /** Resolves once the first connection attempt has succeeded or failed (start-up waits for it). */
  connected(): Promise<void>;
  /** `inRedis` while Redis answers; `locally` while it does not, or when `inRedis` fails. */
  orLocally<T>(inRedis: () => Promise<T>, locally: () => Promise<T>): Promise<T>;
  /**
   * For the health check: a PING while Redis seems to answer (a hang since the last command is
   * found now, within the command timeout), else `down` at once.
   */
  check(): Promise<RedisState>;
  close(): void;
}

export interface FallbackLog {
  warn(obj: unknown, message?: string): void;
  info(obj: unknown, message?: string): void;
}

/** ioredis's rejection of a command that `commandTimeout` ran out on. */
const timedOut = (error: unknown) => error instanceof Error && error.message === 'Command timed out';

export function redisFallback(redis: Redis, log: FallbackLog): RedisFallback {
  let away = false;
  /** Set while the connection is ready but its commands time out; cleared by a PING answered. */
  let hung = false;
  let probe: NodeJS.Timeout | null = null;
  const lost = (error?: unknown) => {
    if (away) return;
    away = true;
    log.warn(
      { err: error },
      'Redis is not answering: rate limits and sign-in lockouts count in this process, bus messages wait for it',
    );
  };
  const back = () => {
    if (!away) return;
    away = false;
    log.info({}, 'Redis answers again: rate limits, lockouts and the bus use it again');
  };
  const stopProbing = () => {
    if (probe) clearInterval(probe);
    probe = null;
  };
  const startProbing = () => {
    if (probe) return;
    probe = setInterval(() => {
      redis.ping().then(
        () => {
          hung = false;
          stopProbing();
          if (redis.status === 'ready') back();
        },
        () => {}, // still hung (or closed): the next round asks again
      );
    }, PROBE_MS);
    probe.unref();
  };
  const failed = (error: unknown) => {
    if (timedOut(error) && redis.status === 'ready') {
      hung = true;
      startProbing();
    }
    lost(error);
  };
  redis.on('reconnecting', () => lost());
  // Each failed reconnection is an error event: the outage's first is logged above, not every one.
  redis.on('error', (error) => lost(error));
  redis.on('ready', () => {
    // A fresh connection answered its ready check: whatever hung was on the old one.
    hung = false;
    stopProbing();
    back();
  });
  redis.on('end', stopProbing);
  const answers = () => redis.status === 'ready' && !hung;
  const firstAttempt = new Promise<void>((resolve) => {
    if (redis.status === 'ready') resolve();
    // A server that never answers the ready check fails it after the command timeout: an error.
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
        failed(error);
        return locally();
      }
    },
    async check() {
      if (!answers()) return 'down';
      try {
        await redis.ping();
        return 'up';
      } catch (error) {
        failed(error);
        return 'down';
      }
    },
    close: stopProbing,
  };
}
