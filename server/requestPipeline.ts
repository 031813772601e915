/**
 * What every request goes through before its route: load shedding, cookies, security headers and
 * the content security policy, rate limits' store, the OpenAPI document, `Cache-Control` on API
 * answers, and, in order, the outside-writes check, the host and origin checks, the wait for the
 * reader's own writes made through other instances, and the session.
 */
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimitPlugin from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { ACCESS_COOKIE } from './auth/cookies';
import type { AuthService } from './auth/service';
import type { Config } from './config';
import { cspOptions, inlineScriptHashes } from './http/contentSecurity';
import { refuseControlCharacters } from './http/controlCharacters';
import { refuseCrossOrigin, refuseOtherHosts } from './http/origin';
import { SHARE_TARGET_PATH } from '../lib/pwa';
import { redisOrLocalStore } from './http/rateLimitStore';
import { PRIVATE_NO_STORE, helmetHeaders, isApiPath, registerSecurityHeaders } from './http/securityHeaders';
import type { ReadYourWrites } from './instance/readYourWrites';
import type { RedisFallback } from './instance/redisFallback';
import { isClientApiPath } from './mastodon/http';
import { CONSENT_FORM_PATH } from './oauth/consentToken';

export interface PipelineOptions {
  config: Config;
  redis: { client: Redis; fallback: RedisFallback } | null;
  auth: Pick<AuthService, 'signedInUser'>;
  noticeOutsideWrites: () => void;
  /** With Redis: the reader's own writes through other instances heard before their request is read. */
  readYourWrites: ReadYourWrites | null;
  /** Where the prerendered pages are, for their inline scripts' hashes; null without pages. */
  pagesDir: string | null;
}

/** Methods that write nothing: their answers need no position. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Registers it all; answers the pages' CSP header template (a nonce per rendered page). */
export async function registerRequestPipeline(app: FastifyInstance, options: PipelineOptions): Promise<string> {
  const { config, redis, readYourWrites } = options;
  await registerLoadShedding(app, config.maxEventLoopDelayMs);
  await app.register(cookie);
  // Scripts by nonce (pages rendered per request) or hash (pages prerendered at build): no 'unsafe-inline'.
  const csp = {
    dev: config.dev,
    mediaBaseUrl: config.mediaBaseUrl,
    inlineScriptHashes: options.pagesDir && !config.dev ? inlineScriptHashes(options.pagesDir) : [],
  };
  const securityOptions = (nonce: boolean) => ({
    contentSecurityPolicy: cspOptions(csp, nonce),
    crossOriginEmbedderPolicy: false,
    hsts: config.secureCookies,
  });
  registerSecurityHeaders(app, securityOptions(false));
  await app.register(rateLimitPlugin, {
    global: false,
    ...(redis ? { store: redisOrLocalStore(redis.client, redis.fallback) } : {}),
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
    // A write's answer names how far this instance's events had gone: the next request, wherever
    // the balancer sends it, waits to have heard that far (instance/readYourWrites.ts).
    if (readYourWrites && !READS.has(request.method) && reply.statusCode < 400 && !isClientApiPath(request.url))
      readYourWrites.afterWrite(request, reply);
    done();
  });
  const hostRules = { publicOrigin: config.publicOrigin, listenHost: config.host };
  const checkHost = refuseOtherHosts(hostRules);
  // The consent form checks a token of its own: browsers post it with `Origin: null` (oauth/consentToken.ts).
  // The share target's fallback reads nothing of the post and only redirects (server/pwa/routes.ts).
  const checkOrigin = refuseCrossOrigin(hostRules, new Set([CONSENT_FORM_PATH, SHARE_TARGET_PATH]));
  // In this order, each refusal (a throw, answered by the error handler) stopping the rest.
  app.addHook('onRequest', (request, reply, done) => {
    // First: what this request reads must not come from caches another process's commit made stale.
    options.noticeOutsideWrites();
    checkHost(request, reply);
    const url = request.url;
    // The client API reads no cookie (bearer tokens only): a request from another site carries no authority.
    const clientApiPath = isClientApiPath(url);
    if (!clientApiPath) checkOrigin(request, reply);
    const behind = clientApiPath ? undefined : readYourWrites?.catchUp(request);
    if (behind) return void behind.then(() => identify(request, done)).catch(done);
    identify(request, done);
  });
  app.addHook('preValidation', refuseControlCharacters);
  // Pages and media are public; only the API needs to know who is asking.
  function identify(request: FastifyRequest, done: (error?: Error) => void) {
    const url = request.url;
    if (isClientApiPath(url) || !isApiPath(url)) return done();
    // A session this process checked lately is known at once; a promise only for a lookup.
    const user = options.auth.signedInUser(request.cookies[ACCESS_COOKIE]);
    if (!(user instanceof Promise)) {
      request.user = user;
      return done();
    }
    user.then((found) => {
      request.user = found;
      done();
    }, done);
  }
  return helmetHeaders(securityOptions(true))['content-security-policy'];
}

/** Sheds load with 503 + Retry-After instead of letting every request queue behind a stalled loop. */
async function registerLoadShedding(app: FastifyInstance, maxEventLoopDelayMs: number): Promise<void> {
  let shed = 0;
  let shedLoggedAt = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    pressureHandler: (request, reply) => {
      // Load shed as designed: worth a line, not an error (error-level alerts mean something broke),
      // and one line per 10 s with the count, not one per refused request on a loop already behind.
      shed++;
      const now = Date.now();
      if (now - shedLoggedAt >= 10_000) {
        request.log.warn({ refused: shed, maxEventLoopDelayMs }, 'the server is busy: requests refused (503)');
        shedLoggedAt = now;
        shed = 0;
      }
      reply
        .code(503)
        .header('Retry-After', '10')
        .send({ message: 'The server is busy, please try again shortly', code: 'Unavailable', requestId: request.id });
    },
  });
}

/** The default place of the prerendered pages. */
export const BUILT_PAGES_DIR = path.resolve(import.meta.dirname, '../.next/server/pages');
