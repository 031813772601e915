/**
 * The one wiring place: builds the repositories, caches and every service once, from the
 * configuration, the database and the media storage. The HTTP layer (app.ts) hands them to the
 * routes; nothing else builds a service.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { deviceCookies } from './auth/devices';
import { memoryLockout, redisLockout } from './auth/lockout';
import { sessionsRepository } from './auth/repository';
import { type AuthService, authService } from './auth/service';
import { sessionCache } from './auth/sessionCache';
import { accessTokens } from './auth/tokens';
import { commentsRepository } from './comments/repository';
import { type CommentsService, commentsService } from './comments/service';
import type { Config } from './config';
import type { Db } from './db/database';
import { transactional } from './db/repository';
import type { Queryable } from './db/schema';
import { type Bus, localBus, redisBus } from './instance/bus';
import { mediaRepository } from './media/repository';
import { type MediaService, deferredWritesSettled, mediaService } from './media/service';
import type { MediaStorage } from './media/storage';
import { removeUnusedMedia, unusedMediaSweeper } from './media/unusedMedia';
import { mentionsRepository } from './mentions/repository';
import { notificationsRepository } from './notifications/repository';
import { type NotificationsService, notificationsService } from './notifications/service';
import { type NotificationStreams, notificationStreams } from './notifications/streams';
import { type HomeFeed, createHomeFeed } from './posts/homeFeed';
import { type ImageInfos, imageInfoCache } from './posts/imageInfos';
import { postsRepository } from './posts/repository';
import { type PostsService, postsService } from './posts/service';
import { reactionsRepository } from './reactions/repository';
import { usersRepository } from './users/repository';
import { type UsersService, usersService } from './users/service';

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface AppContext {
  config: Config;
  db: Db;
  storage: MediaStorage;
  auth: AuthService;
  users: UsersService;
  posts: PostsService;
  comments: CommentsService;
  media: MediaService;
  notifications: NotificationsService;
  /** This process's open notification streams (Server-Sent Events). */
  notificationStreams: NotificationStreams;
  /** The home feed (its in-memory index, the readers' follow lists, its queries). */
  homeFeed: HomeFeed;
  /** Post images' details by media id, worked out once per process (every post list uses them). */
  imageInfos: ImageInfos;
  /** Messages to every instance's caches and streams (through Redis when several run). */
  bus: Bus;
  /** Starts the background work: the home feed's index, the unused-upload sweeper. */
  start(): void;
  /** Stops it, and waits for uploads' deferred writes, before the database closes. */
  close(): Promise<void>;
}

/** Every repository, on the database or on one transaction. */
const repositories = (db: Queryable) => ({
  posts: postsRepository(db),
  users: usersRepository(db),
  comments: commentsRepository(db),
  sessions: sessionsRepository(db),
  reactions: reactionsRepository(db),
  notifications: notificationsRepository(db),
  mentions: mentionsRepository(db),
});

export function buildContext(
  config: Config,
  db: Db,
  storage: MediaStorage,
  log: Log,
  /** Shared counters (wrong sign-in guesses) when several instances run; else kept in this process. */
  redis: Redis | null = null,
): AppContext {
  const data = transactional(db.kysely, repositories);
  const bus = redis ? redisBus(redis, log) : localBus(log);
  const homeFeed = createHomeFeed(db.kysely, {
    maxPosts: config.feedIndexMaxPosts,
    syncMs: config.homeFeedSyncMs,
    onOff: (reason) => log.warn(`Home feed index off (the database walk answers): ${reason}`),
  });
  const imageInfos = imageInfoCache(mediaRepository(db.kysely), storage);
  // An upload answers once its main variant is stored; the other variants follow right after.
  const media = mediaService({
    db: db.kysely,
    storage,
    deferVariants: true,
    onDeferredError: (error) => log.error({ err: error }, 'storing the other variants of an upload failed'),
  });
  const lockoutOptions = { maxFailures: config.rateLimits.authPerAccountPerMinute };
  const auth = authService({
    data,
    tokens: accessTokens(config.jwtSecret),
    checked: sessionCache({ ttlMs: config.sessionCacheMs }),
    refreshReuseGraceMs: config.refreshReuseGraceMs,
    lockout: redis ? redisLockout(redis, lockoutOptions) : memoryLockout(lockoutOptions),
    devices: deviceCookies(config.jwtSecret),
  });
  const notifications = notificationsService({ data });
  const streams = notificationStreams({
    bus,
    find: notifications.find,
    missed: notifications.missed,
    heartbeatMs: config.sseHeartbeatMs,
    log,
  });
  const announce = streams.announce;
  const sweeper =
    config.unusedMediaGraceHours > 0
      ? unusedMediaSweeper((before) => removeUnusedMedia(db.kysely, storage, before), {
          graceMs: config.unusedMediaGraceHours * 3_600_000,
          onDone: (removed) => {
            if (removed > 0) log.info(`Removed ${removed} unused uploads`);
          },
          onError: (error) => log.warn({ err: error }, 'Removing unused uploads failed; trying again later'),
        })
      : null;

  return {
    config,
    db,
    storage,
    auth,
    media,
    homeFeed,
    imageInfos,
    bus,
    notifications,
    notificationStreams: streams,
    users: usersService({ data, auth, media, homeFeed, announce }),
    posts: postsService({ data, media, homeFeed, imageInfos, announce }),
    comments: commentsService({ data, announce }),
    start() {
      // Loads in the background: the server answers at once, the home feed from the database meanwhile.
      void homeFeed.start();
      sweeper?.start();
    },
    async close() {
      streams.close();
      await homeFeed.close();
      await sweeper?.close();
      await deferredWritesSettled();
      await bus.close();
    },
  };
}
