/**
 * What the rules refuse, with the API's `code` and message; no HTTP here. The error handler
 * (server/http/errorHandler.ts) gives each kind its status code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
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
  constructor(message: string, code = 'Unavailable', options?: ErrorOptions) {
    super(code, message, options);
  }
}
