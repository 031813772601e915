/**
 * Builds the Fastify app: every `/api/*` route, media files, and (when given) a handler that
 * passes every other path to Next.js. Tests build it without Next and drive it with inject().
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimitPlugin from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { Redis } from 'ioredis';
import { REMOTE_USERNAME_MAX } from '../lib/limits';
import { CSP_NONCE_HEADER } from '../lib/csp';
import { ACCESS_COOKIE } from './auth/cookies';
import { type Guards, requireLiveSession, requireUser } from './auth/guard';
import { emailRoutes } from './auth/emailRoutes';
import { accountAuthRoutes } from './auth/accountRoutes';
import { authRoutes } from './auth/routes';
import { type Config, metricsEnabled } from './config';
import type { InvalidationTable } from './cache/invalidation';
import { type AppContext, buildContext } from './context';
import { type Db, HEALTH_DATABASE_TIMEOUT_MS, databaseAnswers } from './db/database';
import type { AuthUser } from './domain/types';
import { AsciiBodiesResponse } from './http/asciiBodies';
import { cspOptions, inlineScriptHashes, pageCsp, reactRuntimeScripts } from './http/contentSecurity';
import { refuseControlCharacters } from './http/controlCharacters';
import { registerErrorHandling } from './http/errorHandler';
import { HttpError } from './http/errors';
import { finishPage } from './http/pageResponse';
import { refuseCrossOrigin, refuseOtherHosts } from './http/origin';
import { rateLimit } from './http/rateLimits';
import { redisOrLocalStore } from './http/rateLimitStore';
import { lazyRequestLogger } from './http/requestLogger';
import { PRIVATE_NO_STORE, helmetHeaders, isApiPath, registerSecurityHeaders } from './http/securityHeaders';
import { staticFiles } from './http/staticFiles';
import { redisFallback } from './instance/redisFallback';
import { storageHealth } from './instance/storageHealth';
import { instanceRoutes } from './instance/routes';
import { REQUEST_ID_HEADER, requestIdOf } from './http/requestIds';
import { imageJobs } from './media/pipeline';
import { createMetrics } from './metrics/metrics';
import { type MetricsListener, countRequests, listenForMetrics, publicMetricsRoute } from './metrics/routes';
import { domainRoutes } from './federation/domainRoutes';
import { federationRoutes } from './federation/routes';
import { mediaRoutes } from './media/routes';
import { adminRoutes, reportsRoutes } from './moderation/routes';
import { overviewRoutes } from './overview/routes';
import type { MediaStorage } from './media/storage';
import { notificationsRoutes } from './notifications/routes';
import { type RenderPage, privatePages } from './pages/privatePages';
import { postsRoutes } from './posts/routes';
import { isClientApiPath, withoutTrailingSlash } from './mastodon/http';
import { clientApi } from './mastodon/routes';
import { idempotentCalls, sharedIdempotentCalls } from './mastodon/idempotency';
import { type ClientStreams, clientStreams } from './mastodon/streaming';
import type { ClientServices } from './mastodon/support';
import { authorizedAppsRoutes, oauthConsentRoutes } from './oauth/routes';
import { actorPage } from './pages/actorPage';
import { postPreview } from './pages/publicPreview';
import { CONSENT_FORM_PATH } from './oauth/consentToken';
import { commentsRoutes } from './comments/routes';
import { accountRoutes } from './users/accountRoutes';
import { accountListsRoutes } from './accountLists/routes';
import { safetyRoutes } from './safety/routes';
import { peopleRoutes } from './users/peopleRoutes';
import { usersRoutes } from './users/routes';

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
  /** Where the prerendered pages are, for their inline scripts' hashes (default: `.next/server/pages`). */
  pagesDir?: string;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read its lines). */
  logStream?: NodeJS.WritableStream;
  /** What each event makes the caches forget (`cache/invalidation.ts`); tests take a line out. */
  invalidation?: InvalidationTable;
  /** The time two-factor codes are checked at (default: the wall clock); tests pin it. */
  totpClock?: () => number;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, db, storage } = options;
  const app = Fastify({
    logger: options.logStream
      ? { level: config.logLevel, stream: options.logStream }
      : options.logger !== false && { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // Answers that can write an ASCII body as latin1 (`replyAsciiJson`, http/asciiBodies.ts).
    // A request whose body never ends holds its socket (a file descriptor) until `requestTimeout`
    // (Fastify's default is never: 1,000 idle sockets made the process run out of them). Node reads
    // it as the server is made (set afterwards, as Fastify's own option is, it does nothing) and
    // looks for requests past it every `connectionsCheckingInterval`.
    http: {
      ServerResponse: AsciiBodiesResponse,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.ceil(config.requestTimeoutMs / 4)),
    },
    requestTimeout: config.requestTimeoutMs,
    // A path segment may name someone elsewhere (`name@host`, up to 300 characters, percent-encoded):
    // the router's default of 100 would answer 404 before any schema could check it.
    routerOptions: { maxParamLength: 4 * REMOTE_USERNAME_MAX },
    // A proxy's id is kept (one id from the edge to this log), else each request gets a new one.
    genReqId: (req) => requestIdOf(req, config.trustProxy),
    // Errors are logged with their request id by the error handler; a line per request is noise.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    childLoggerFactory: lazyRequestLogger,
    // Mastodon apps sometimes end a client API path with a slash.
    rewriteUrl: (request) => withoutTrailingSlash(request.url ?? '/'),
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
  // Counters live in Redis when several instances must share them, else in this process.
  // Every command bounded in time (`commandTimeout`), the ready check included: a Redis that accepts
  // connections and never answers must not hold requests (`instance/redisFallback.ts`).
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: config.redisCommandTimeoutMs })
    : null;
  const fallback = redis ? redisFallback(redis, app.log) : null;
  const ctx = buildContext(config, db, storage, app.log, redis && fallback ? { client: redis, fallback } : null, {
    invalidation: options.invalidation,
    totpClock: options.totpClock,
  });
  // Tests and tools look at its parts; the routes and pages are handed the services they use.
  app.decorate('ctx', ctx);
  app.addHook('onReady', async () => {
    ctx.start();
    // Listening before the bus hears the other instances would miss their first invalidations, and
    // before Redis answers would count the first rate-limited requests in this process alone.
    await ctx.bus.ready();
    await fallback?.connected();
  });
  // Open streams would keep the server from closing: end them before it waits for connections.
  app.addHook('preClose', async () => ctx.notificationStreams.close());
  app.addHook('onClose', async () => ctx.close());
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
  // Only when someone may read them (`METRICS_PORT`, `METRICS_TOKEN`); statements are timed when the
  // database was opened `timed`, as main.ts opens it then.
  const { federation } = ctx;
  const metrics = metricsEnabled(config)
    ? createMetrics({
        caches: ctx.caches,
        activity: ctx.activity,
        streams: ctx.notificationStreams,
        outbox: ctx.outbox,
        imageJobs,
        federation: federation && { queuedTasks: () => federation.data.queuedTasks(), failures: federation.failures },
        timing: db.timing,
      })
    : null;
  if (metrics) countRequests(app, metrics);
  let metricsListener: MetricsListener | null = null;
  app.decorate('metricsAddress', () => metricsListener?.address() ?? null);
  if (metrics && config.metricsPort !== null) {
    const { metricsHost, metricsPort } = config;
    app.addHook('onReady', async () => {
      metricsListener = await listenForMetrics(metrics, metricsHost, metricsPort);
    });
    app.addHook('onClose', async () => metricsListener?.close());
  }
  let shed = 0;
  let shedLoggedAt = 0;
  await app.register(underPressure, {
    // Shed load with 503 + Retry-After instead of letting every request queue behind a stalled loop.
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    pressureHandler: (request, reply) => {
      // Load shed as designed: worth a line, not an error (error-level alerts mean something broke),
      // and one line per 10 s with the count, not one per refused request on a loop already behind.
      shed++;
      const now = Date.now();
      if (now - shedLoggedAt >= 10_000) {
        request.log.warn(
          { refused: shed, maxEventLoopDelayMs: config.maxEventLoopDelayMs },
          'the server is busy: requests refused (503)',
        );
        shedLoggedAt = now;
        shed = 0;
      }
      reply
        .code(503)
        .header('Retry-After', '10')
        .send({ message: 'The server is busy, please try again shortly', code: 'Unavailable', requestId: request.id });
    },
  });
  await app.register(cookie);
  // Scripts by nonce (pages rendered per request) or hash (pages prerendered at build): no 'unsafe-inline'.
  const csp = {
    dev: config.dev,
    mediaBaseUrl: config.mediaBaseUrl,
    inlineScriptHashes:
      options.pageHandler && !config.dev
        ? inlineScriptHashes(options.pagesDir ?? path.resolve(import.meta.dirname, '../.next/server/pages'))
        : [],
  };
  const securityOptions = (nonce: boolean) => ({
    contentSecurityPolicy: cspOptions(csp, nonce),
    crossOriginEmbedderPolicy: false,
    hsts: config.secureCookies,
  });
  registerSecurityHeaders(app, securityOptions(false));
  const pageCspTemplate = helmetHeaders(securityOptions(true))['content-security-policy'];
  if (redis)
    app.addHook('onClose', async () => {
      fallback?.close();
      // QUIT waits for an answer a hung Redis never sends: bounded by the command timeout, then cut.
      await redis.quit().catch(() => redis.disconnect());
    });
  await app.register(rateLimitPlugin, {
    global: false,
    ...(redis && fallback ? { store: redisOrLocalStore(redis, fallback) } : {}),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Posts API', version: '1.0.0', description: 'The HTTP contract of Posts (API.md).' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: ACCESS_COOKIE } } },
    },
  });

  // Hooks that take a callback and call it at once: an async hook costs every request a promise
  // and a turn of the microtask queue (docs/benchmarks/log/2026-11-27.md, "The request's floor").
  app.addHook('onSend', (request, reply, _payload, done) => {
    // API answers depend on the session (or say it is missing): no cache may keep or share them.
    if (isApiPath(request.url) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', PRIVATE_NO_STORE);
    done();
  });
  const hostRules = { publicOrigin: config.publicOrigin, listenHost: config.host };
  const checkHost = refuseOtherHosts(hostRules);
  // The consent form checks a token of its own: browsers post it with `Origin: null` (oauth/consentToken.ts).
  const checkOrigin = refuseCrossOrigin(hostRules, new Set([CONSENT_FORM_PATH]));
  // In this order, each refusal (a throw, answered by the error handler) stopping the rest.
  app.addHook('onRequest', (request, reply, done) => {
    // First: what this request reads must not come from caches another process's commit made stale.
    ctx.noticeOutsideWrites();
    checkHost(request, reply);
    const url = request.url;
    // The client API reads no cookie (bearer tokens only): a request from another site carries no authority.
    const clientApiPath = isClientApiPath(url);
    if (!clientApiPath) checkOrigin(request, reply);
    // Pages and media are public; only the API needs to know who is asking.
    if (clientApiPath || !isApiPath(url)) return done();
    // A session this process checked lately is known at once; a promise only for a lookup.
    const user = ctx.auth.signedInUser(request.cookies[ACCESS_COOKIE]);
    if (!(user instanceof Promise)) {
      request.user = user;
      return done();
    }
    user.then((found) => {
      request.user = found;
      done();
    }, done);
  });
  app.addHook('preValidation', refuseControlCharacters);

  // After the host check: ActivityPub requests for this instance's actors and objects.
  if (ctx.federation)
    await federationRoutes(app, ctx.federation, { inboxPerDomainPerMinute: config.rateLimits.inboxPerDomainPerMinute });

  const writesPerUser = rateLimit(app, 'writes', config.rateLimits.writesPerUserPerMinute, (r) => r.user?.id ?? null);
  const guards: Guards = {
    signedIn: [requireUser],
    write: [requireUser, writesPerUser],
    accountWrite: [requireUser, writesPerUser, requireLiveSession(ctx.auth.isLive)],
  };

  await app.register(authRoutes, {
    prefix: '/api/auth',
    config,
    auth: ctx.auth,
    users: ctx.users,
    activity: ctx.activity,
  });
  await app.register(emailRoutes, {
    prefix: '/api/auth',
    config,
    passwordReset: ctx.passwordReset,
    emailVerification: ctx.emailVerification,
    guards,
  });
  await app.register(accountAuthRoutes, {
    prefix: '/api/auth',
    sessions: ctx.sessions,
    twoFactor: ctx.twoFactor,
    guards,
    secureCookies: config.secureCookies,
  });
  await app.register(accountRoutes, {
    prefix: '/api/users',
    exports: ctx.exports,
    deletion: ctx.deletion,
    guards,
    exportsPerHour: config.rateLimits.exportsPerUserPerHour,
    secureCookies: config.secureCookies,
  });
  await app.register(accountListsRoutes, { prefix: '/api/users', lists: ctx.accountLists, guards });
  await app.register(usersRoutes, { prefix: '/api/users', users: ctx.users, posts: ctx.posts, guards });
  await app.register(safetyRoutes, { prefix: '/api/users', safety: ctx.safety, guards });
  await app.register(peopleRoutes, {
    prefix: '/api/people',
    users: ctx.users,
    guards,
    suggestionsPerMinute: config.rateLimits.suggestionsPerUserPerMinute,
  });
  await app.register(postsRoutes, { prefix: '/api/posts', posts: ctx.posts, guards });
  await app.register(commentsRoutes, { prefix: '/api/posts', comments: ctx.comments, guards });
  await app.register(notificationsRoutes, {
    prefix: '/api/notifications',
    notifications: ctx.notifications,
    streams: ctx.notificationStreams,
    guards,
  });
  await app.register(reportsRoutes, {
    prefix: '/api/reports',
    moderation: ctx.moderation,
    guards,
    reportsPerUser: rateLimit(
      app,
      'reports',
      config.rateLimits.reportsPerUserPerHour,
      (r) => r.user?.id ?? null,
      3_600_000,
    ),
  });
  await app.register(adminRoutes, { prefix: '/api/admin', moderation: ctx.moderation, guards });
  await app.register(overviewRoutes, { prefix: '/api/admin', overview: ctx.overview, guards });
  await app.register(domainRoutes, { prefix: '/api/admin/domains', domainBlocks: ctx.domainBlocks, guards });
  await app.register(instanceRoutes, {
    prefix: '/api/instance',
    config,
    homeFeed: ctx.homeFeed,
    databaseAnswers: () => databaseAnswers(db.kysely, HEALTH_DATABASE_TIMEOUT_MS),
    redisState: fallback ? () => fallback.check() : null,
    storageState: () => storageState.check(),
  });
  await app.register(mediaRoutes, { config, media: ctx.media, storage });
  await app.register(authorizedAppsRoutes, { prefix: '/api/auth', oauth: ctx.oauth, guards });
  await app.register(oauthConsentRoutes, { oauth: ctx.oauth, auth: ctx.auth, config });
  const clientServices: ClientServices = {
    config,
    users: ctx.users,
    posts: ctx.posts,
    comments: ctx.comments,
    media: ctx.media,
    notifications: ctx.notifications,
    safety: ctx.safety,
    idempotent: redis && fallback ? sharedIdempotentCalls(redis, fallback) : idempotentCalls(),
    limits: {
      writes: writesPerUser.withHeaders,
      uploads: rateLimit(app, 'uploads', config.rateLimits.uploadsPerUserPerMinute, (r) => r.user?.id ?? null)
        .withHeaders,
    },
  };
  const streams = clientStreams({ events: ctx.events, services: clientServices, slots: ctx.streamSlots, log: app.log });
  app.decorate('clientStreams', streams);
  await app.register(clientApi, {
    oauth: ctx.oauth,
    auth: ctx.auth,
    config,
    services: clientServices,
    streaming: { streams, heartbeatMs: config.sseHeartbeatMs },
  });
  publicMetricsRoute(app, metrics, config.metricsToken);

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
  app.all('/api/*', { schema: { hide: true } }, async (request) => {
    throw new HttpError(404, 'RouteNotFound', `No API route ${request.method} ${request.url.split('?')[0]}`);
  });

  if (options.pageHandler) {
    // The build's static files, precompressed (Brotli/gzip); in development Next serves its own.
    if (!config.dev) await app.register(staticFiles, { dir: path.resolve(import.meta.dirname, '../.next/static') });
    const handle = options.pageHandler;
    const reactRuntime = config.dev ? null : await reactRuntimeScripts();
    const render: RenderPage = async (request, reply) => {
      // This response's nonce, for pages/_document.tsx (whatever a client sent under that name is replaced).
      const page = pageCsp(pageCspTemplate);
      request.raw.headers[CSP_NONCE_HEADER] = page.nonce;
      reply.header('content-security-policy', page.header);
      if (reactRuntime) finishPage(request.raw, reply.raw, page.nonce, reactRuntime);
      // Next writes the raw response itself; carry over the headers set by hooks and routes.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value as string);
      }
      reply.hijack();
      await handle(request.raw, reply.raw);
    };
    // The private pages, rendered with their first data for a signed-in viewer.
    // A visitor at a public post's address gets its preview (and unfurlers its meta) instead of sign-in.
    const visitorPages = { '/post/[id]': postPreview(ctx.posts, config) };
    await app.register(privatePages, { render, auth: ctx.auth, config, visitorPages });
    await app.register(actorPage, { render, users: ctx.users });
    app.route({ method: ['GET', 'HEAD'], url: '/*', schema: { hide: true }, handler: render });
  }
  return app;
}
