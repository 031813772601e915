/**
 * Each request's logger, made when the request first logs. Fastify gives every request a child of
 * the app's logger bound to its request id, and pino's `child` serializes the bindings at once
 * (docs/benchmarks/log/2026-11-29.md, "Per-request costs"); only failures log here (the error handler), so most
 * requests never need it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

class RequestLogger implements FastifyBaseLogger {
  // The log methods are the prototype's (below), not fields: a request makes one object, no closures.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The child Fastify would have made. */
  made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

for (const level of LEVELS)
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: Parameters<LogFn>) {
    this.made()[level](...args);
  } as LogFn;

/** Fastify's `childLoggerFactory`: the child it would make, made on first use. */
export const lazyRequestLogger = (parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) =>
  new RequestLogger(parent, bindings, options);
