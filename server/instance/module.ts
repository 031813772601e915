/**
 * This instance among the others: the bus (Redis, or this process alone) the domain events travel
 * on, and what keeps the caches true to writes made elsewhere: a message missed (a gap, a silent
 * publisher, Redis away) or another process writing to the database makes every cache start over,
 * and a reader's own writes through other instances are waited for (`context.ts` builds it).
 */
import type { Redis } from 'ioredis';
import { forgetOnOutsideWrites } from '../cache/outsideWrites';
import type { CacheRegistry } from '../cache/registry';
import type { Config } from '../config';
import { type Db, HEALTH_DATABASE_TIMEOUT_MS, databaseAnswers } from '../db/database';
import { type BusLog, type RedisBusOptions, localBus, redisBus } from './bus';
import { busMissedCounts } from './busMissed';
import type { MissedReason } from './busSequence';
import { instancePresence } from './presence';
import { readYourWrites } from './readYourWrites';

export interface InstanceDeps {
  config: Config;
  db: Db;
  redis: Redis | null;
  caches: Pick<CacheRegistry, 'forgetEverything'>;
  log: BusLog;
  /** Tests only: drops, delays, duplicates or reorders what the bus hears from Redis (`bus.ts`). */
  busFaults?: RedisBusOptions['faults'];
}

export function instanceFeature({ config, db, redis, caches, log, busFaults }: InstanceDeps) {
  const bus = redis ? redisBus(redis, log, { heartbeatMs: config.busHeartbeatMs, faults: busFaults }) : localBus(log);
  // A message this instance may have missed: every cache starts over rather than wait for its
  // entries' time to run out (docs/architecture.md, "A gap-free bus"). Counted for `/metrics`.
  const busMissed = busMissedCounts();
  const startOver = (reason: MissedReason) => {
    busMissed.count(reason);
    caches.forgetEverything();
  };
  bus.onMissed(startOver);
  const outsideWrites = forgetOnOutsideWrites(db.committedElsewhere, caches, config.outsideWritesCheckMs);
  return {
    bus,
    busMissed,
    /**
     * Before each request: the caches forget everything if another process wrote to the database
     * (`cache/outsideWrites.ts`), or while this instance does not hear the bus (Redis away or hung).
     */
    noticeOutsideWrites() {
      outsideWrites();
      if (!bus.hearing()) startOver('deaf');
    },
    /** With Redis: a reader's next request waits for their own writes through other instances. */
    readYourWrites:
      redis &&
      readYourWrites({
        bus,
        secret: config.jwtSecret,
        secure: config.secureCookies,
        behind: () => startOver('behind'),
      }),
    presence: instancePresence(bus, {
      id: config.instanceId,
      databaseAnswers: () => databaseAnswers(db.kysely, HEALTH_DATABASE_TIMEOUT_MS),
    }),
  };
}
