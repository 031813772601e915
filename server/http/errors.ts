import { stackLimitFor } from '../domain/errors';

/** Refusals of the HTTP layer itself (rate limits, origin, unknown routes); the rules raise domain errors. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    // Only a 5xx is logged (`errorHandler.ts`): a refusal's stack is never read.
    const limit = stackLimitFor(statusCode >= 500);
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'HttpError';
  }
}
