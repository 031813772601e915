/**
 * Builds the Fastify app: every `/api/*` route, media files, and (when given) a handler that
 * passes every other path to Next.js. Tests build it without Next and drive it with inject().
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimitPlugin from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, LogController, type preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { ACCESS_COOKIE } from './auth/cookies';
import { requireUser } from './auth/guard';
import { authRoutes } from './auth/routes';
import { type AuthService, authService } from './auth/service';
import type { AuthUser } from './domain/types';
import { accessTokens } from './auth/tokens';
import type { Config } from './config';
import type { Db } from './db/database';
import { registerErrorHandling } from './http/errorHandler';
import { HttpError } from './http/errors';
import { refuseCrossOrigin } from './http/origin';
import { rateLimit } from './http/rateLimits';
import { registerSecurityHeaders } from './http/securityHeaders';
import { staticFiles } from './http/staticFiles';
import { instanceRoutes } from './instance/routes';
import { mediaRoutes } from './media/routes';
import { removeUnusedMedia, unusedMediaSweeper } from './media/unusedMedia';
import { type RenderPage, privatePages } from './pages/privatePages';
import { type FeedIndex, createFeedIndex } from './posts/homeFeed/feedIndex';
import { type ImageInfos, imageInfoCache } from './posts/imageInfos';
import { postsRoutes } from './posts/routes';
import { type FolloweeCache, followeeCache } from './posts/homeFeed/followeeCache';
import { followeeIds } from './users/repository';
import { usersRoutes } from './users/routes';
import type { MediaStorage } from './media/storage';

export interface AppContext {
  config: Config;
  db: Db;
  storage: MediaStorage;
  auth: AuthService;
  /** The home feed's in-memory walk; answers null while loading or when switched off. */
  feedIndex: FeedIndex;
  /** Home-feed readers' follow lists, for a moment (`HOME_FEED_SYNC_MS`). */
  followees: FolloweeCache;
  /** Post images' details by media id, worked out once per process (every post list uses them). */
  imageInfos: ImageInfos;
  /** preHandlers: signed-in reads, and signed-in writes (rate limited per user). */
  guards: { signedIn: preHandlerAsyncHookHandler[]; write: preHandlerAsyncHookHandler[] };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, from the session cookie only; null for visitors. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface BuildOptions {
  config: Config;
  db: Db;
  storage: MediaStorage;
  /** Serves every non-API path (Next.js); without it such paths answer 404. */
  pageHandler?: PageHandler;
  logger?: boolean;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, db, storage } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    genReqId: () => crypto.randomUUID(),
    // Errors are logged with their request id by the error handler; a line per request is noise.
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
  const tokens = accessTokens(config.jwtSecret);
  const feedIndex = createFeedIndex(db.kysely, {
    maxPosts: config.feedIndexMaxPosts,
    syncMs: config.homeFeedSyncMs,
    onOff: (reason) => app.log.warn(`Home feed index off (the database walk answers): ${reason}`),
  });
  const followees = followeeCache((userId) => followeeIds(db.kysely, db.dialect, userId), { ttlMs: config.homeFeedSyncMs });
  const ctx: AppContext = {
    config, db, storage, feedIndex, followees, imageInfos: imageInfoCache(db.kysely, storage), auth: authService(db.kysely, tokens, config), guards: { signedIn: [], write: [] },
  };
  app.decorate('ctx', ctx);
  // Loads in the background: the server answers at once, the home feed from the database meanwhile.
  app.addHook('onReady', async () => { void feedIndex.start(); });
  app.addHook('onClose', async () => feedIndex.close());
  if (config.unusedMediaGraceHours > 0) {
    const sweeper = unusedMediaSweeper((before) => removeUnusedMedia(db.kysely, storage, before), {
      graceMs: config.unusedMediaGraceHours * 3_600_000,
      onDone: (removed) => { if (removed > 0) app.log.info(`Removed ${removed} unused uploads`); },
      onError: (error) => app.log.warn({ err: error }, 'Removing unused uploads failed; trying again later'),
    });
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', async () => sweeper.close());
  }
  app.decorateRequest('user', null);

  registerErrorHandling(app);
  await app.register(underPressure, {
    // Shed load with 503 + Retry-After instead of letting every request queue behind a stalled loop.
    maxEventLoopDelay: 1000,
    pressureHandler: (_request, reply) => {
      reply.code(503).header('Retry-After', '10').send({ message: 'The server is busy, please try again shortly', code: 'Unavailable' });
    },
  });
  await app.register(cookie);
  registerSecurityHeaders(app, {
    // Pages ship an inline theme script and styled-components <style> tags.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: config.dev ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'https:', ...(config.dev ? ['ws:'] : [])],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.secureCookies,
  });
  // Counters live in Redis when several instances must share them, else in this process.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }) : null;
  if (redis) app.addHook('onClose', async () => { await redis.quit(); });
  await app.register(rateLimitPlugin, { global: false, ...(redis ? { redis } : {}) });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Posts API', version: '1.0.0', description: 'The HTTP contract of Posts (API.md).' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: ACCESS_COOKIE } } },
    },
  });

  app.addHook('onRequest', refuseCrossOrigin);
  app.addHook('onRequest', async (request) => {
    // Pages and media are public; only the API needs to know who is asking.
    if (request.url.startsWith('/api/')) request.user = await app.ctx.auth.authenticate(request.cookies[ACCESS_COOKIE]);
  });

  const writesPerUser = rateLimit(app, 'writes', config.rateLimits.writesPerUserPerMinute, (r) => r.user?.id ?? null);
  ctx.guards = { signedIn: [requireUser], write: [requireUser, writesPerUser] };

  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(usersRoutes, { prefix: '/api/users' });
  await app.register(postsRoutes, { prefix: '/api/posts' });
  await app.register(instanceRoutes, { prefix: '/api/instance' });
  await app.register(mediaRoutes);

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
  app.all('/api/*', { schema: { hide: true } }, async (request) => {
    throw new HttpError(404, 'RouteNotFound', `No API route ${request.method} ${request.url.split('?')[0]}`);
  });

  if (options.pageHandler) {
    // The build's static files, precompressed (Brotli/gzip); in development Next serves its own.
    if (!config.dev) await app.register(staticFiles, { dir: path.resolve(import.meta.dirname, '../.next/static') });
    const handle = options.pageHandler;
    const render: RenderPage = async (request, reply) => {
      // Next writes the raw response itself; carry over the headers set by hooks and routes.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.hijack();
      await handle(request.raw, reply.raw);
    };
    // The private pages, rendered with their first data for a signed-in viewer.
    await app.register(privatePages, { render });
    app.route({ method: ['GET', 'HEAD'], url: '/*', schema: { hide: true }, handler: render });
  }
  return app;
}
