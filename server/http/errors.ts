/** Refusals of the HTTP layer itself (rate limits, origin, unknown routes); the rules raise domain errors. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
