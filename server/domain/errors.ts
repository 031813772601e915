/**
 * What the rules refuse, with the API's `code` and message; no HTTP here. The error handler
 * (server/http/errorHandler.ts) gives each kind its status code.
 */
export class DomainError extends Error {
  /** A refusal (4xx) is answered, never logged: its stack is not captured (`stackLimitFor`). */
  static readonly logged: boolean = false;

  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    const limit = stackLimitFor(new.target.logged);
    super(message, options);
    Error.stackTraceLimit = limit;
    this.name = new.target.name;
  }
}

/**
 * Sets V8's stack depth for the error about to be made, and returns the depth to put back: none
 * for one that is never logged. Under Fastify's hooks a stack costs ~30 µs to capture, as much as
 * a whole cached read (docs/benchmarks/log/2026-11-29.md, "Where a cached read's time goes").
 */
export function stackLimitFor(logged: boolean): number {
  const limit = Error.stackTraceLimit;
  if (!logged) Error.stackTraceLimit = 0;
  return limit;
}

/** The input breaks a rule (400). */
export class InvalidError extends DomainError {
  constructor(message: string, code = 'ValidationError') {
    super(code, message);
  }
}

/** No valid session or credentials (401). */
export class UnauthorizedError extends DomainError {
  constructor(message: string, code = 'Unauthorized') {
    super(code, message);
  }
}

/** Signed in, but not allowed to do this (403). */
export class ForbiddenError extends DomainError {
  constructor(message: string, code = 'Forbidden') {
    super(code, message);
  }
}

/** The thing does not exist, or is not this viewer's to see (404). */
export class NotFoundError extends DomainError {
  constructor(message: string, code = 'NotFound') {
    super(code, message);
  }
}

/** Clashes with what exists (409). */
export class ConflictError extends DomainError {
  constructor(message: string, code = 'Conflict') {
    super(code, message);
  }
}

/** Too many attempts: try again in `retryAfterSeconds` (429 with Retry-After). */
export class TooManyAttemptsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'RateLimited',
  ) {
    super(code, message);
  }
}

/** A file of a kind the rules do not take (415). */
export class UnsupportedError extends DomainError {
  constructor(message: string, code = 'UnsupportedMediaType') {
    super(code, message);
  }
}

/** A service this one needs (the media storage) does not answer; nothing was changed (503). */
export class UnavailableError extends DomainError {
  static override readonly logged = true;

  constructor(message: string, code = 'Unavailable', options?: ErrorOptions) {
    super(code, message, options);
  }
}
