/**
 * Requests that take "not now" for an answer: a 503 (the server is busy, the storage is away) or a
 * 429 (a rate limit) is asked again after the server's `Retry-After`, a few times, before giving up.
 */

/** What the retry needs of an answer (app.inject's, or any HTTP client's reduced to this). */
export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
}

export interface RetryOptions {
  /** Tries in all, the first one included. */
  attempts?: number;
  /** Waits `ms`; a test passes its own to see the waits without spending them. */
  wait?: (ms: number) => Promise<void>;
  /** Told before each wait (to say why the script pauses). */
  onRetry?: (statusCode: number, ms: number) => void;
}

const NOT_NOW = new Set([429, 503]);
/** No server asks a script to wait longer than this between two tries. */
const MAX_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `Retry-After` in milliseconds: seconds or an HTTP date (RFC 9110); without one (or unreadable),
 * `fallbackMs`. Capped at a minute.
 */
export function retryAfterMs(header: unknown, fallbackMs: number, now = Date.now()): number {
  const value = Array.isArray(header) ? header[0] : header;
  let ms = fallbackMs;
  if (typeof value === 'number' || (typeof value === 'string' && /^\s*\d+\s*$/.test(value))) ms = Number(value) * 1000;
  else if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) ms = Math.max(0, Date.parse(value) - now);
  return Math.min(ms, MAX_WAIT_MS);
}

/**
 * Sends until the answer is not a 503 or 429, or `attempts` are spent (then that last answer is
 * returned for the caller to report). Without `Retry-After` the waits double from one second.
 */
export async function politely<T extends Answer>(send: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 10, wait = sleep, onRetry } = options;
  for (let attempt = 1; ; attempt += 1) {
    const answer = await send();
    if (!NOT_NOW.has(answer.statusCode) || attempt >= attempts) return answer;
    const ms = retryAfterMs(answer.headers['retry-after'], 1000 * 2 ** (attempt - 1));
    onRetry?.(answer.statusCode, ms);
    await wait(ms);
  }
}
