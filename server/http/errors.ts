/** The server's one error type: every throw becomes `{ message, code }` with this status. */
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

export const badRequest = (message: string, code = 'ValidationError') => new HttpError(400, code, message);
export const notFound = (message: string, code = 'NotFound') => new HttpError(404, code, message);
export const forbidden = (message: string, code = 'Forbidden') => new HttpError(403, code, message);
export const conflict = (message: string, code = 'Conflict') => new HttpError(409, code, message);
