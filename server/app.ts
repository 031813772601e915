/**
 * Builds the Fastify app: every `/api/*` route, media files, and (when given) a handler that
 * passes every other path to Next.js. Tests build it without Next and drive it with inject().
 * Each feature registers its own routes (its `module.ts`); this file puts them in order.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { type Guards, requireLiveSession, requireUser } from './auth/guard';
import { registerAccountListsRoutes } from './accountLists/module';
import { registerInstagramImportRoutes } from './instagramImport/module';
import { registerMovingRoutes } from './moving/module';
import { registerAuthRoutes } from './auth/module';
import { registerCommentsRoutes } from './comments/module';
import type { Config } from './config';
import { type AppContext, buildContext } from './context';
import type { RedisBusOptions } from './instance/bus';
import { type Db, HEALTH_DATABASE_TIMEOUT_MS, databaseAnswers } from './db/database';
import { warnOfMixedInstances } from './db/postgresWrites';
import type { AuthUser } from './domain/types';
import { fastifyServer } from './fastifyServer';
import { domainRoutes } from './federation/domainRoutes';
import { federationRoutes } from './federation/routes';
import { registerErrorHandling } from './http/errorHandler';
import { HttpError } from './http/errors';
import { rateLimit } from './http/rateLimits';
import { REQUEST_ID_HEADER } from './http/requestIds';
import { redisFallback } from './instance/redisFallback';
import { instanceRoutes } from './instance/routes';
import { storageHealth } from './instance/storageHealth';
import type { InvalidationTable } from './invalidation/table';
import type { ClientStreams } from './mastodon/streaming';
import { registerClientApi } from './mastodon/module';
import { mediaRoutes } from './media/routes';
import type { MediaStorage } from './media/storage';
import { registerMetrics } from './metrics/module';
import { adminRoutes, reportsRoutes } from './moderation/routes';
import { registerNotificationsRoutes } from './notifications/module';
import { overviewRoutes } from './overview/routes';
import { registerPages } from './pages/module';
import { registerPostsRoutes } from './posts/module';
import { registerSavesRoutes } from './saves/module';
import { registerTagsRoutes } from './tags/module';
import { registerExploreRoutes } from './explore/module';
import { registerPushRoutes } from './push/module';
import { BUILT_PAGES_DIR, registerRequestPipeline } from './requestPipeline';
import { registerSafetyRoutes } from './safety/module';
import { registerUsersRoutes } from './users/module';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, from the session cookie only; null for visitors. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    ctx: AppContext;
    /** The client API's streaming connections (WebSocket and SSE) in this process. */
    clientStreams: ClientStreams;
    /** Where the `METRICS_PORT` listener listens once ready (port 0 picks one); null without it. */
    metricsAddress(): AddressInfo | null;
  }
}

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface BuildOptions {
  config: Config;
  db: Db;
  storage: MediaStorage;
  /** Serves every non-API path (Next.js); without it such paths answer 404. */
  pageHandler?: PageHandler;
  /** Where the build's pages are: the prerendered ones' inline scripts' hashes, the routes (default: `.next/server/pages`). */
  pagesDir?: string;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read its lines). */
  logStream?: NodeJS.WritableStream;
  /** What each event makes the caches forget (`invalidation/table.ts`); tests take a line out. */
  invalidation?: InvalidationTable;
  /** The time two-factor codes are checked at (default: the wall clock); tests pin it. */
  totpClock?: () => number;
  /** Waits before a failed Web Push's retries (`push/deliveries.ts`); tests shorten them. */
  pushRetryDelaysMs?: number[];
  /** Tests only: drops, delays, duplicates or reorders what the bus hears from Redis (`instance/bus.ts`). */
  busFaults?: RedisBusOptions['faults'];
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, db, storage } = options;
  const app = fastifyServer(config, options);
  // Counters live in Redis when several instances must share them, else in this process.
  // Every command bounded in time (`commandTimeout`), the ready check included: a Redis that accepts
  // connections and never answers must not hold requests (`instance/redisFallback.ts`).
  const client = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: config.redisCommandTimeoutMs })
    : null;
  const redis = client && { client, fallback: redisFallback(client, app.log) };
  const ctx = buildContext(config, db, storage, app.log, redis, options);
  // Tests and tools look at its parts; the routes and pages are handed the services they use.
  app.decorate('ctx', ctx);
  app.addHook('onReady', async () => {
    ctx.start();
    // Listening before the bus hears the other instances would miss their first invalidations, and
    // before Redis answers would count the first rate-limited requests in this process alone.
    await ctx.bus.ready();
    await redis?.fallback.connected();
    // Instances on the bus and off it would miss each other's writes (migration 039): said once, at start.
    if (db.dialect === 'postgres') await warnOfMixedInstances(db.kysely, !!redis, (message) => app.log.warn(message));
  });
  // Open streams would keep the server from closing: end them before it waits for connections.
  app.addHook('preClose', async () => ctx.notificationStreams.close());
  app.addHook('onClose', async () => ctx.close());
  if (redis)
    app.addHook('onClose', async () => {
      redis.fallback.close();
      // QUIT waits for an answer a hung Redis never sends: bounded by the command timeout, then cut.
      await redis.client.quit().catch(() => redis.client.disconnect());
    });
  app.decorateRequest('user', null);

  // Where this process writes: a failed write for want of space, or too little left, shows in health.
  const storageState = storageHealth(config.s3 ? [config.dataDir] : [config.dataDir, config.mediaDir]);
  registerErrorHandling(app, storageState);
  // A write that succeeded after a full disk says space was found again (a callback hook: no promise
  // per request, and nothing done unless a write failed for want of space).
  app.addHook('onResponse', (request, reply, done) => {
    if (storageState.isFull() && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 300)
      storageState.wrote();
    done();
  });
  // First of all hooks, so that every answer carries it: refusals by later hooks, errors, pages.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  const metrics = registerMetrics(app, { config, ctx, timing: db.timing });
  const pagesDir = options.pagesDir ?? BUILT_PAGES_DIR;
  const pageCspTemplate = await registerRequestPipeline(app, {
    config,
    redis,
    auth: ctx.auth,
    noticeOutsideWrites: ctx.noticeOutsideWrites,
    readYourWrites: ctx.readYourWrites,
    pagesDir: options.pageHandler ? pagesDir : null,
  });

  // After the host check: ActivityPub requests for this instance's actors and objects.
  if (ctx.federation)
    await federationRoutes(app, ctx.federation, { inboxPerDomainPerMinute: config.rateLimits.inboxPerDomainPerMinute });

  const byUser = (request: { user: AuthUser | null }) => request.user?.id ?? null;
  const writesPerUser = rateLimit(app, 'writes', config.rateLimits.writesPerUserPerMinute, byUser);
  const guards: Guards = {
    signedIn: [requireUser],
    write: [requireUser, writesPerUser],
    accountWrite: [requireUser, writesPerUser, requireLiveSession(ctx.auth.isLive)],
  };
  const features = { ...ctx, guards };
  await registerAuthRoutes(app, features);
  await registerAccountListsRoutes(app, features);
  await registerInstagramImportRoutes(app, features);
  await registerMovingRoutes(app, features);
  await registerUsersRoutes(app, features);
  await registerSafetyRoutes(app, features);
  await registerPostsRoutes(app, features);
  await registerSavesRoutes(app, features);
  await registerTagsRoutes(app, features);
  await registerExploreRoutes(app, features);
  await registerCommentsRoutes(app, features);
  await registerNotificationsRoutes(app, features);
  await registerPushRoutes(app, features);
  const reportsPerUser = rateLimit(app, 'reports', config.rateLimits.reportsPerUserPerHour, byUser, 3_600_000);
  await app.register(reportsRoutes, { prefix: '/api/reports', moderation: ctx.moderation, guards, reportsPerUser });
  await app.register(adminRoutes, { prefix: '/api/admin', moderation: ctx.moderation, guards });
  await app.register(overviewRoutes, { prefix: '/api/admin', overview: ctx.overview, guards });
  await app.register(domainRoutes, { prefix: '/api/admin/domains', domainBlocks: ctx.domainBlocks, guards });
  await app.register(instanceRoutes, {
    prefix: '/api/instance',
    config,
    homeFeed: ctx.homeFeed,
    databaseAnswers: () => databaseAnswers(db.kysely, HEALTH_DATABASE_TIMEOUT_MS),
    redisState: redis && (() => redis.fallback.check()),
    storageState: () => storageState.check(),
  });
  await app.register(mediaRoutes, { config, media: ctx.media, storage });
  await registerClientApi(app, { ...features, redis, writesPerUser });
  metrics.publicRoute();

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
  app.all('/api/*', { schema: { hide: true } }, async (request) => {
    throw new HttpError(404, 'RouteNotFound', `No API route ${request.method} ${request.url.split('?')[0]}`);
  });
  if (options.pageHandler) await registerPages(app, { ...ctx, handle: options.pageHandler, pageCspTemplate, pagesDir });
  return app;
}
