/**
 * Federation wired (when `FEDERATION` is on): Fedify's federation over the database and the media,
 * its deliveries queued once per change by the instance that made it, and the look-up of people
 * elsewhere that posts, people and lists use. It acts here through the same services as a
 * signed-in person; they are handed over as a function read when an activity arrives, because
 * they need federation too (a mention of `@name@host`, a move, a deleted account's farewell) and
 * are built after it (`context.ts`).
 */
import type { DomainSeverity } from '../../lib/types';
import type { CacheRegistry } from '../cache/registry';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { DomainEvents } from '../events/domainEvents';
import type { MediaStorage } from '../media/storage';
import { deliverOnEvents } from './deliveries';
import { type FederationOptions, createPostsFederation } from './federation';

export interface FederationFeatureDeps {
  config: Config;
  db: Db;
  caches: CacheRegistry;
  storage: MediaStorage;
  events: DomainEvents;
  domainBlocks: { severityOf(host: string): Promise<DomainSeverity | null> };
  log: { error(details: object, message: string): void };
  services: FederationOptions['services'];
}

export function federationFeature({
  config,
  db,
  caches,
  storage,
  events,
  domainBlocks,
  log,
  services,
}: FederationFeatureDeps) {
  if (!config.federation) return { federation: null, lookUpRemote: null };
  const federation = createPostsFederation({
    ...{ db, caches, storage, services, publish: events.publish, severityOf: domainBlocks.severityOf },
    site: { url: config.federation.origin, host: new URL(config.federation.origin).host },
    instanceName: config.instanceName,
    allowPrivateAddress: config.federation.allowPrivateAddress,
    maxImages: config.maxPostImages,
    onError: (error, what) => log.error({ err: error }, what),
  });
  // Once per change, from the instance that made it: every instance hears the events.
  deliverOnEvents(events.subscribeOwn, federation, (error) =>
    log.error({ err: error }, 'queueing a federation delivery failed'),
  );
  return { federation, lookUpRemote: (query: string) => federation.lookUp(query) };
}
