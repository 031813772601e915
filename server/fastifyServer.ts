/** The Fastify instance with this app's server options: time limits, ids, logging, the router's limits. */
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { REMOTE_USERNAME_MAX } from '../lib/limits';
import type { Config } from './config';
import { withoutTrailingSlash } from './mastodon/http';
import { AsciiBodiesResponse } from './http/asciiBodies';
import { requestIdOf } from './http/requestIds';
import { lazyRequestLogger } from './http/requestLogger';

export function fastifyServer(
  config: Config,
  options: { logger?: boolean; logStream?: NodeJS.WritableStream },
): FastifyInstance {
  return Fastify({
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
}
