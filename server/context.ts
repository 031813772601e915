/**
 * The one wiring place: builds the repositories, the caches and every feature once, from the
 * configuration, the database and the media storage. Each feature wires itself (its `module.ts`:
 * its caches, services and routes); this file lists them in the order they need each other. The
 * HTTP layer (app.ts) registers their routes; nothing else builds a service.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { usernameKey } from '../lib/validation';
import { accountListsFeature } from './accountLists/module';
import { removeArchives } from './instagramImport/archiveFiles';
import { instagramImportFeature } from './instagramImport/module';
import { authFeature } from './auth/module';
import { cacheRegistry } from './cache/registry';
import { commentsFeature } from './comments/module';
import type { Config } from './config';
import type { Db } from './db/database';
import { transactional } from './db/repository';
import { repositories } from './repositories';
import { domainEvents } from './events/domainEvents';
import { exploreFeature } from './explore/module';
import { movingFeature } from './moving/module';
import { domainBlocksService } from './federation/domainBlocks';
import { federationFeature } from './federation/module';
import type { RedisBusOptions } from './instance/bus';
import { instanceFeature } from './instance/module';
import type { RedisFallback } from './instance/redisFallback';
import { type InvalidationTable, INVALIDATION, invalidateOnEvents } from './invalidation/table';
import { mailFeature } from './mail/module';
import { imageJobs } from './media/pipeline';
import { mediaFeature } from './media/module';
import { deferredWritesSettled } from './media/service';
import type { MediaStorage } from './media/storage';
import { activity } from './metrics/activity';
import { moderationService } from './moderation/service';
import { notificationsFeature } from './notifications/module';
import { oauthService } from './oauth/service';
import { overviewRepository } from './overview/repository';
import { overviewService } from './overview/service';
import { postsFeature } from './posts/module';
import { pushFeature } from './push/module';
import { safetyFeature } from './safety/module';
import { savedIdsFeature, savesFeature } from './saves/module';
import { tagsFeature } from './tags/module';
import { toProfile } from './users/mappers';
import { usersFeature } from './users/module';

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export type AppContext = ReturnType<typeof buildContext>;

export function buildContext(
  config: Config,
  db: Db,
  storage: MediaStorage,
  log: Log,
  /**
   * Shared counters (wrong sign-in guesses) and the bus when several instances run, with what
   * stands in while Redis does not answer; else kept in this process.
   */
  redis: { client: Redis; fallback: RedisFallback } | null = null,
  options: {
    /** What each event makes the caches forget; tests pass a table with a line taken out. */
    invalidation?: InvalidationTable;
    /** The time two-factor codes are checked at; tests pin it so no code straddles a 30-second step. */
    totpClock?: () => number;
    /** Waits before a failed Web Push's retries; tests shorten them. */
    pushRetryDelaysMs?: number[];
    /** Tests only: drops, delays, duplicates or reorders what the bus hears from Redis (`instance/bus.ts`). */
    busFaults?: RedisBusOptions['faults'];
  } = {},
) {
  const data = transactional(db.kysely, repositories, db.now);
  // Every cache is made in it: `/metrics` and `forgetEverything` reach them all.
  const caches = cacheRegistry();
  const instance = instanceFeature({
    config,
    db,
    redis: redis?.client ?? null,
    caches,
    log,
    busFaults: options.busFaults,
  });
  const { bus } = instance;
  const events = domainEvents(bus);
  const { publish } = events;
  const ttlMs = config.postCacheMs;
  const domainBlocks = domainBlocksService(db.kysely, { publish, ttlMs, caches });
  const { media, sweeper } = mediaFeature({ config, db, storage, log });
  const { mailer, outbox } = mailFeature(config, log);
  const accounts = authFeature({ config, data, caches, publish, outbox, mailer, redis, totpClock: options.totpClock });
  const safety = safetyFeature({ data, publish, caches, ttlMs, toProfile });
  const { federation, lookUpRemote } = federationFeature({
    ...{ config, db, caches, storage, events, domainBlocks, log },
    // Read when an activity arrives, long after these are built below.
    services: () => ({ posts: posts.posts, comments: comments.comments, media, ...people, moves }),
  });
  const { saves: savedRows, savedIds } = savedIdsFeature({ db, caches, ttlMs });
  const { tags, followedTags } = tagsFeature({ db, caches, ttlMs, publish });
  const posts = postsFeature({
    ...{ config, db, data, storage, caches, publish, media, lookUpRemote },
    hiddenAuthors: safety.hiddenAuthors,
    onOff: (reason) => log.warn(`Home feed index off (the database walk answers): ${reason}`),
    onFilesLeft: (error) => log.error({ err: error }, "removing a post's files failed"),
    // Read when a post is written, long after `moves` is built below.
    mayPost: (user) => moves.assertMayPost(user),
    defaultAudience: async (user) => (await people.authors.person(usernameKey(user.username)))?.defaultAudience,
    savedAmong: savedIds.among,
    followedTags,
  });
  const saves = savesFeature({ saves: savedRows, posts: posts.posts, publish });
  const comments = commentsFeature({
    ...{ db, data, caches, ttlMs, publish, postCache: posts.postCache, readerOf: posts.readerOf },
    ...{ post: posts.posts.one, mentionsPerMinute: config.rateLimits.mentionsPerUserPerMinute },
    mentionRules: posts.mentionRules,
  });
  const people = usersFeature({
    ...{ config, data, storage, caches, log, publish, media, lookUpRemote, homeFeed: posts.homeFeed },
    ...{ auth: accounts.auth, checkPassword: accounts.checkPassword, emailVerification: accounts.emailVerification },
    ...{ twoFactor: accounts.twoFactor, twoFactorEnabled: accounts.twoFactor.isEnabled },
    hiddenPeople: safety.hiddenAuthors,
    // The archives the person's imports still keep (users/ knows no import's folder).
    removeArchives: (names) => removeArchives(config.instagramImport.dir, names),
    farewell: federation
      ? {
          read: async (userId) => {
            const goodbye = await federation.farewellOf(userId);
            return goodbye && (() => federation.sendFarewell(goodbye));
          },
          onError: (error) => log.error({ err: error }, 'queueing Delete(Person) for a deleted account failed'),
        }
      : undefined,
  });
  const explore = exploreFeature({
    ...{ db, caches, publish, refreshMs: config.trendsRefreshMs, posts: posts.posts },
    ...{ hiddenAuthors: safety.hiddenAuthors, authors: people.authors, followsOf: posts.homeFeed.showsOf },
    followedByFollowees: posts.homeFeed.followedByFollowees,
    onError: (error) => log.warn({ err: error }, "working out Explore's trends failed"),
  });
  const { moves } = movingFeature({
    ...{ config, db, publish, federation, users: people.users, people: people.authors },
    onError: (error, what) => log.warn({ err: error }, what),
  });
  const { accountLists, listImports } = accountListsFeature({
    ...{ config, db, data, log, users: people.users, safety: safety.safety, lookUpRemote },
  });
  const { instagramImports, instagramWorker } = instagramImportFeature({
    ...{ config, db, data, log, media, posts: posts.posts, profile: people.users },
  });
  const told = {
    ...{ posts: posts.postCache, comments: comments.commentCache, hiddenPeople: safety.hiddenAuthors },
    ...{ commentsByPerson: posts.commentsByPerson, homeFeed: posts.homeFeed, sessions: accounts.checked },
    ...{ authors: people.authors, domainBlocks: domainBlocks.cache, followRequests: people.followRequests },
    savedPosts: savedIds,
    followedTags,
    trends: explore.trends,
  };
  // Subscribed first: every other listener (the streams) hears an event after the caches forgot.
  invalidateOnEvents(events, told, options.invalidation ?? INVALIDATION);
  const notifications = notificationsFeature({ config, data, events, log });
  const { webPush } = config;
  const retryDelaysMs = options.pushRetryDelaysMs;
  const push = webPush && pushFeature({ config, webPush, db, events, ...notifications, log, retryDelaysMs });
  return {
    ...{ config, db, storage, bus, events, media, outbox, domainBlocks, federation, caches, push },
    ...instance,
    /** Follows, blocks and mutes as Mastodon's CSV lists, and their imports (issue 76). */
    accountLists,
    /** Instagram archives imported as posts (issue 76). */
    instagramImports,
    /** Aliases and moves of accounts (issue 76). */
    moves,
    ...accounts,
    ...people,
    ...notifications,
    ...safety,
    posts: posts.posts,
    /** Each person's saved posts (issue 73). */
    saves,
    /** Each person's followed tags (issue 73), and what the home feed keeps of them. */
    tags,
    followedTags,
    /** Trending posts and tags, people to follow (issue 73). */
    explore,
    comments: comments.comments,
    homeFeed: posts.homeFeed,
    moderation: moderationService({ data, posts: posts.posts, comments: comments.comments, publish }),
    oauth: oauthService({ data, checked: accounts.checked, publish, caches }),
    /** Sign-ins, sign-ups and rate-limit refusals, counted for `/metrics`. */
    activity: activity(),
    overview: overviewService({
      data: overviewRepository(db.kysely),
      queues: () => ({ imageJobs: imageJobs.depth(), mailOutbox: outbox.depth() }),
      instances: async () => (await instance.presence.ready(), instance.presence.instances()),
    }),
    /** Starts the background work: the home feed's index, the unused-upload sweeper, federation's queue. */
    start() {
      // Loads in the background: the server answers at once, the home feed from the database meanwhile.
      void posts.homeFeed.start();
      sweeper?.start();
      instance.presence.start();
      federation?.start();
      listImports.start();
      instagramWorker.start();
      explore.trends.start();
    },
    /** Stops it, and waits for uploads' deferred writes, before the database closes. */
    async close() {
      instance.presence.close();
      explore.trends.close();
      notifications.notificationStreams.close();
      await listImports.close();
      await instagramWorker.close();
      await federation?.close();
      await push?.deliveries.close();
      await posts.homeFeed.close();
      await sweeper?.close();
      await deferredWritesSettled();
      await bus.close();
      await outbox.settled();
      mailer.close();
    },
  };
}
