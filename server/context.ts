/**
 * The one wiring place: builds the repositories, caches and every service once, from the
 * configuration, the database and the media storage. The HTTP layer (app.ts) hands them to the
 * routes; nothing else builds a service.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { deviceCookies } from './auth/devices';
import { emailTokensRepository } from './auth/emailTokens';
import { type EmailVerificationService, emailVerificationService } from './auth/emailVerification';
import { currentPasswordCheck } from './auth/currentPassword';
import { memoryLockout, redisOrMemoryLockout } from './auth/lockout';
import { type PasswordResetService, passwordResetService } from './auth/passwordReset';
import { sessionsRepository } from './auth/repository';
import { type AuthService, authService } from './auth/service';
import { sessionCache } from './auth/sessionCache';
import { type SessionsService, sessionsService } from './auth/sessions';
import { accessTokens } from './auth/tokens';
import { type TwoFactorService, twoFactorService } from './auth/twoFactor';
import { twoFactorRepository } from './auth/twoFactorRepository';
import type { CountedCache } from './cache/counts';
import { type InvalidationTable, INVALIDATION, invalidateOnEvents } from './cache/invalidation';
import { commentCache as createCommentCache } from './comments/commentCache';
import { commentsByIds, commentsRepository } from './comments/repository';
import { type CommentsService, commentsService } from './comments/service';
import type { Config } from './config';
import { type Db, HEALTH_DATABASE_TIMEOUT_MS, databaseAnswers } from './db/database';
import { transactional } from './db/repository';
import type { Queryable } from './db/schema';
import { type DomainEvents, domainEvents } from './events/domainEvents';
import { type Bus, localBus, redisBus } from './instance/bus';
import { type Presence, instancePresence } from './instance/presence';
import { openFileLimit, streamsForLimit } from './instance/fileLimit';
import type { RedisFallback } from './instance/redisFallback';
import { deliverOnEvents } from './federation/deliveries';
import { type DomainBlocksService, domainBlocksService } from './federation/domainBlocks';
import { type PostsFederation, createPostsFederation } from './federation/federation';
import { tombstonesRepository } from './federation/tombstones';
import { logMailer, smtpMailer } from './mail/mailer';
import { type Activity, activity } from './metrics/activity';
import { type Outbox, outbox as createOutbox } from './mail/outbox';
import { imageJobs } from './media/pipeline';
import { mediaRepository } from './media/repository';
import { type MediaService, deferredWritesSettled, mediaService } from './media/service';
import type { MediaStorage } from './media/storage';
import { removeUnusedMedia, unusedMediaSweeper } from './media/unusedMedia';
import { mentionsRepository } from './mentions/repository';
import { moderationRepository } from './moderation/repository';
import { type ModerationService, moderationService } from './moderation/service';
import { overviewRepository } from './overview/repository';
import { type OverviewService, overviewService } from './overview/service';
import { notificationsRepository } from './notifications/repository';
import { oauthRepository } from './oauth/repository';
import { type OAuthService, oauthService } from './oauth/service';
import { type NotificationsService, notificationsService } from './notifications/service';
import { type NotificationStreams, notificationStreams } from './notifications/streams';
import { type StreamSlots, streamSlots } from './notifications/streamSlots';
import { type HomeFeed, createHomeFeed } from './posts/homeFeed';
import { imageInfoCache } from './posts/imageInfos';
import { postCache as createPostCache } from './posts/postCache';
import { postsByIds, postsRepository } from './posts/repository';
import { type PostsService, postsService } from './posts/service';
import { forgetEverything, forgetOnOutsideWrites } from './cache/outsideWrites';
import { COMMENT_REACTIONS, POST_REACTIONS, reactionsByUser, reactionsRepository } from './reactions/repository';
import { accountRepository } from './users/accountRepository';
import { type AccountDeletion, accountDeletion } from './users/deletion';
import { type AccountExport, accountExport } from './users/export';
import { hiddenAuthorsCache } from './safety/hiddenAuthors';
import { commentsByPersonCache } from './posts/commentsByPerson';
import { safetyRepository } from './safety/repository';
import { type SafetyService, safetyService } from './safety/service';
import { usersRepository } from './users/repository';
import { authorCache } from './users/authorCache';
import { type UsersService, usersService } from './users/service';
import { VERIFY_MAX_BYTES, linkVerification } from './users/linkVerification';
import { guardedFetch } from './federation/outgoingGuard';
import { accountListsRepository } from './accountLists/repository';
import { type AccountListsService, accountListsService } from './accountLists/service';
import { importWorker } from './accountLists/worker';
import { links } from '../lib/pages';

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface AppContext {
  config: Config;
  db: Db;
  storage: MediaStorage;
  auth: AuthService;
  /** Password reset links (issue 22). */
  passwordReset: PasswordResetService;
  /** Email verification and email changes (issue 22). */
  emailVerification: EmailVerificationService;
  /** Mail and the lookups behind it, done after the answer. */
  outbox: Outbox;
  /** A user's own sessions (Settings' device list). */
  sessions: SessionsService;
  twoFactor: TwoFactorService;
  users: UsersService;
  /** Blocks and mutes (issue 23). */
  safety: SafetyService;
  /** The signed-in user's data export (zip) and account deletion. */
  exports: AccountExport;
  deletion: AccountDeletion;
  /** Follows, blocks and mutes as Mastodon's CSV lists, and their imports (issue 76). */
  accountLists: AccountListsService;
  posts: PostsService;
  comments: CommentsService;
  media: MediaService;
  notifications: NotificationsService;
  /** Reports, the admin queue, suspensions and the admin log (issue 23). */
  moderation: ModerationService;
  /** Blocked domains (issue 32): the admin API, and what the inbox and deliveries ask. */
  domainBlocks: DomainBlocksService;
  /** OAuth apps and tokens of the Mastodon client API (issue 33). */
  oauth: OAuthService;
  /** This process's open notification streams (Server-Sent Events). */
  notificationStreams: NotificationStreams;
  /** The caps every stream shares (notifications, the client API's streaming). */
  streamSlots: StreamSlots;
  /** The home feed (its in-memory index, the readers' follow lists, its queries). */
  homeFeed: HomeFeed;
  /** Messages between instances (through Redis when several run). */
  bus: Bus;
  /** The instances heard on the bus (heartbeats), for the admin overview. */
  presence: Presence;
  /** The admin overview's figures (issue 34). */
  overview: OverviewService;
  /** Before each request: the caches forget everything if another process wrote to SQLite (`cache/outsideWrites.ts`). */
  noticeOutsideWrites(): void;
  /** What every write publishes once committed, heard by the caches and the streams (`events/`). */
  events: DomainEvents;
  /** Every in-memory cache by its name in `/metrics` (`posts_cache_*{cache}`). */
  caches: Record<string, CountedCache>;
  /** Sign-ins, sign-ups and rate-limit refusals, counted for `/metrics`. */
  activity: Activity;
  /** ActivityPub (issue 32, `federation/`); null when off (`config.federation`). */
  federation: PostsFederation | null;
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
  emailTokens: emailTokensRepository(db),
  reactions: reactionsRepository(db),
  notifications: notificationsRepository(db),
  mentions: mentionsRepository(db),
  twoFactor: twoFactorRepository(db),
  account: accountRepository(db),
  safety: safetyRepository(db),
  moderation: moderationRepository(db),
  oauth: oauthRepository(db),
  tombstones: tombstonesRepository(db),
});

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
  } = {},
): AppContext {
  const { invalidation = INVALIDATION, totpClock } = options;
  const data = transactional(db.kysely, repositories, db.now);
  const bus = redis ? redisBus(redis.client, log) : localBus(log);
  const events = domainEvents(bus);
  const domainBlocks = domainBlocksService(db.kysely, { publish: events.publish, ttlMs: config.postCacheMs });
  const postCache = createPostCache(
    (viewerId, ids, withReaction) => postsByIds(db.kysely, viewerId, ids, withReaction),
    (viewerId, max) => reactionsByUser(db.kysely, POST_REACTIONS, viewerId, max),
    config.postCacheMs,
  );
  const commentCache = createCommentCache(
    (viewerId, ids) => commentsByIds(db.kysely, viewerId, ids),
    (viewerId, max) => reactionsByUser(db.kysely, COMMENT_REACTIONS, viewerId, max),
    config.postCacheMs,
  );
  const hiddenAuthors = hiddenAuthorsCache((readerId) => data.safety.hiddenAuthorsOf(readerId), {
    ttlMs: config.postCacheMs,
  });
  const commentsByPerson = commentsByPersonCache((personIds) => data.posts.commentCountsOf(personIds), {
    ttlMs: config.postCacheMs,
  });
  const homeFeed = createHomeFeed(db.kysely, {
    maxPosts: config.feedIndexMaxPosts,
    syncMs: config.homeFeedSyncMs,
    postsByIds: postCache.rows,
    onOff: (reason) => log.warn(`Home feed index off (the database walk answers): ${reason}`),
  });
  const checked = sessionCache({ ttlMs: config.sessionCacheMs });
  const authors = authorCache((keys) => data.users.usersNamed(keys), { ttlMs: config.postCacheMs });
  const caches = {
    posts: postCache,
    comments: commentCache,
    hiddenPeople: hiddenAuthors,
    commentsByPerson,
    homeFeed,
    sessions: checked,
    authors,
    domainBlocks: domainBlocks.cache,
  };
  // Subscribed first: every other listener (the streams) hears an event after the caches forgot.
  invalidateOnEvents(events, caches, invalidation);
  const noticeOutsideWrites = forgetOnOutsideWrites(db.committedElsewhere, caches, config.outsideWritesCheckMs);
  // Cut off from the other instances for a while (Redis away), this one may have missed their
  // changes: every cache starts over rather than wait for its entries' time to run out.
  bus.onRejoined(() => {
    log.info('The bus hears the other instances again: the caches start over');
    forgetEverything(caches);
  });
  const imageInfos = imageInfoCache(mediaRepository(db.kysely), storage);
  // An upload answers once its main variant is stored; the other variants follow right after.
  const media = mediaService({
    db: db.kysely,
    storage,
    deferVariants: true,
    onDeferredError: (error) => log.error({ err: error }, 'storing the other variants of an upload failed'),
  });
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : logMailer(log);
  const outbox = createOutbox({
    onError: (error) => log.error({ err: error }, 'sending a mail failed'),
    onDropped: () => log.error('Too many mails waiting to be sent: one was dropped'),
  });
  const site = { name: config.instanceName, url: config.siteUrl };
  const emailVerification = emailVerificationService({ data, outbox, mailer, site });
  const lockoutOf = (maxFailures: number) =>
    redis ? redisOrMemoryLockout(redis.client, redis.fallback, { maxFailures }) : memoryLockout({ maxFailures });
  // One count of wrong passwords per account: sign-ins and the current password asked in Settings.
  const passwordLockout = lockoutOf(config.rateLimits.authPerAccountPerMinute);
  const checkPassword = currentPasswordCheck(passwordLockout);
  const twoFactor = twoFactorService({
    data,
    serverSecret: config.jwtSecret,
    lockout: lockoutOf(config.rateLimits.twoFactorPerAccountPerMinute),
    checkPassword,
    issuer: config.instanceName,
    now: totpClock,
  });
  const auth = authService({
    data,
    tokens: accessTokens(config.jwtSecret),
    checked,
    refreshReuseGraceMs: config.refreshReuseGraceMs,
    lockout: passwordLockout,
    devices: deviceCookies(config.jwtSecret),
    emailVerification,
    twoFactor,
    publish: events.publish,
  });
  const { publish } = events;
  const notifications = notificationsService({ data, publish });
  const slots = streamSlots({
    max: config.sseStreamsMax ?? streamsForLimit(openFileLimit()),
    perAddress: config.sseStreamsPerIp,
  });
  const streams = notificationStreams({
    events,
    find: notifications.find,
    missed: notifications.missed,
    unread: notifications.unreadOf,
    heartbeatMs: config.sseHeartbeatMs,
    slots,
    log,
  });
  const presence = instancePresence(bus, {
    id: config.instanceId,
    databaseAnswers: () => databaseAnswers(db.kysely, HEALTH_DATABASE_TIMEOUT_MS),
  });
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

  const federation = config.federation
    ? createPostsFederation({
        db,
        storage,
        site: { url: config.federation.origin, host: new URL(config.federation.origin).host },
        instanceName: config.instanceName,
        allowPrivateAddress: config.federation.allowPrivateAddress,
        severityOf: domainBlocks.severityOf,
        publish: events.publish,
        onError: (error, what) => log.error({ err: error }, what),
        // Read when an activity arrives, long after these are built below.
        services: () => ({ posts, comments, media, users, deletion }),
      })
    : null;
  // Once per change, from the instance that made it: every instance hears the events.
  if (federation)
    deliverOnEvents(events.subscribeOwn, federation, (error) =>
      log.error({ err: error }, 'queueing a federation delivery failed'),
    );

  const { mentionsPerUserPerMinute: mentionsPerMinute } = config.rateLimits;
  // `@name@host` is looked up elsewhere (when federation is on); `@name@` this site is `name`.
  const mentionRules = {
    ownHost: new URL(config.siteUrl).host,
    lookUpRemote: federation && ((handle: string) => federation.lookUp(handle)),
  };
  const posts = postsService({
    data,
    media,
    homeFeed,
    imageInfos,
    postCache,
    hiddenAuthors,
    commentsByPerson,
    publish,
    mentionsPerMinute,
    mentionRules,
  });
  const comments = commentsService({
    data,
    postCache,
    commentCache,
    hiddenAuthors,
    post: posts.one,
    publish,
    mentionsPerMinute,
    mentionRules,
  });

  // Private addresses (and http pages) only where federation allows them: tests, local trials.
  const allowPrivateAddress = config.federation?.allowPrivateAddress ?? false;
  const verifier = linkVerification({
    findUser: (id) => data.users.findUserById(id),
    replaceFields: (id, before, after) => data.users.replaceProfileFields(id, before, after),
    fetchPage: (url) =>
      guardedFetch(url, {
        allowPrivateAddress,
        accept: 'text/html,application/xhtml+xml',
        maxBytes: VERIFY_MAX_BYTES,
        userAgent: `Posts (+${config.siteUrl})`,
      }),
    profileUrlsOf: (user) => [
      new URL(links.profile(user.username), config.siteUrl).href,
      ...(config.federation ? [new URL(`/users/${user.id}`, config.federation.origin).href] : []),
    ],
    allowHttp: allowPrivateAddress,
    publish,
    onError: (error, what) => log.warn({ err: error }, what),
  });

  const users = usersService({
    data,
    auth,
    checkPassword,
    emailVerification,
    media,
    authors,
    hiddenPeople: hiddenAuthors,
    homeFeed,
    publish,
    lookUpRemote: federation && ((query) => federation.lookUp(query)),
    verifyLinks: verifier.start,
  });

  const deletion = accountDeletion({
    data,
    storage,
    twoFactor,
    checkPassword,
    publish,
    onFilesLeft: (error) => log.error({ err: error }, "removing a deleted account's files failed"),
    farewell: federation
      ? {
          read: (userId) => federation.farewellOf(userId),
          send: (goodbye) => federation.sendFarewell(goodbye),
          onError: (error) => log.error({ err: error }, 'queueing Delete(Person) for a deleted account failed'),
        }
      : undefined,
  });

  const safety = safetyService({ data, publish });
  const listsRepo = accountListsRepository(db.kysely);
  const accountLists = accountListsService({
    repo: listsRepo,
    users,
    safety,
    // A job runs with no session: its owner as the services' viewer, while they are a person here.
    ownerOf: async (id) => {
      const row = await data.users.findUserById(id);
      return row && !row.domain ? { id: row.id, username: row.username, role: row.role, sessionId: '' } : null;
    },
    lookUpRemote: federation && ((address) => federation.lookUp(address)),
    ownHost: new URL(config.federation?.origin ?? config.siteUrl).host,
    wake: () => listImports.wake(),
  });
  const listImports = importWorker({
    repo: listsRepo,
    run: accountLists.runJob,
    onError: (error) => log.error({ err: error }, 'an account list import failed; trying again later'),
  });

  return {
    config,
    db,
    storage,
    auth,
    passwordReset: passwordResetService({ data, publish, outbox, mailer, site }),
    emailVerification,
    outbox,
    media,
    homeFeed,
    bus,
    events,
    federation,
    noticeOutsideWrites,
    notifications,
    notificationStreams: streams,
    streamSlots: slots,
    sessions: sessionsService({ sessions: data.sessions, publish, revokeOtherSessions: auth.revokeOtherSessions }),
    twoFactor,
    users,
    safety,
    accountLists,
    exports: accountExport({ data, storage, twoFactorEnabled: twoFactor.isEnabled }),
    deletion,
    posts,
    comments,
    moderation: moderationService({ data, posts, comments, publish }),
    domainBlocks,
    oauth: oauthService({ data, checked, publish }),
    caches: {
      posts: postCache.rowCache,
      post_pages: postCache.pageCache,
      comments: commentCache.rowCache,
      comment_pages: commentCache.pageCache,
      sessions: checked,
      hidden_authors: hiddenAuthors,
      comments_by_person: commentsByPerson,
      authors,
      followees: homeFeed.followeeCache,
      image_infos: imageInfos,
    },
    activity: activity(),
    presence,
    overview: overviewService({
      data: overviewRepository(db.kysely),
      queues: () => ({ imageJobs: imageJobs.depth(), mailOutbox: outbox.depth() }),
      instances: async () => (await presence.ready(), presence.instances()),
    }),
    start() {
      // Loads in the background: the server answers at once, the home feed from the database meanwhile.
      void homeFeed.start();
      sweeper?.start();
      presence.start();
      federation?.start();
      listImports.start();
    },
    async close() {
      presence.close();
      streams.close();
      await listImports.close();
      await federation?.close();
      await homeFeed.close();
      await sweeper?.close();
      await deferredWritesSettled();
      await bus.close();
      await outbox.settled();
      mailer.close();
    },
  };
}
