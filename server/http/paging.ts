/** Keyset paging: `?limit=N&cursor=C`, and a `Link: <...>; rel="next"` header when more exist. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setBounded } from '../cache/bounded';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../lib/limits';
import { InvalidError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { Page } from '../domain/types';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export type { Page };

export const pageQuerySchema = {
  limit: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
  cursor: { type: 'string', maxLength: 36 },
} as const;

export function readPage(query: PageQuery): Page {
  const cursor = query.cursor || null;
  if (cursor !== null && !isUuid(cursor))
    throw new InvalidError('cursor must be a value from a Link header', 'InvalidCursor');
  return { limit: query.limit ?? PAGE_LIMIT_DEFAULT, cursor };
}

/**
 * Repositories fetch `limit + 1` rows; the extra one only says that another page exists.
 * Sends the Link header and returns the page's items. The next page is the request's own URL
 * with a new cursor, unless the list lives elsewhere (`listUrl`: a post's comments, embedded in
 * the post).
 */
export function sendPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page,
  rows: T[],
  cursorOf: (item: T) => string,
  listUrl: string = request.url,
): T[] {
  if (rows.length <= page.limit) return rows;
  const items = rows.slice(0, page.limit);
  reply.header('Link', `<${nextPageUrl(listUrl, cursorOf(items[items.length - 1]), page.limit)}>; rel="next"`);
  return items;
}

/**
 * Link targets lately made, by limit, cursor and request URL: a list's first page, read by many
 * readers, asks for the same one each time, and URLSearchParams is not free (docs/benchmarks.md,
 * "Pages as their posts' kept text").
 */
const nextPageUrls = new Map<string, string>();
const NEXT_PAGE_URLS_MAX = 2_000;

/** The same path and query with `cursor` and `limit` set. */
export function nextPageUrl(requestUrl: string, cursor: string, limit: number): string {
  const key = `${limit} ${cursor} ${requestUrl}`;
  let url = nextPageUrls.get(key);
  if (url === undefined) {
    url = madeNextPageUrl(requestUrl, cursor, limit);
    setBounded(nextPageUrls, key, url, NEXT_PAGE_URLS_MAX);
  }
  return url;
}

/** URLSearchParams alone, no URL parsing (docs/benchmarks/notes.md#caches-and-statements). */
function madeNextPageUrl(requestUrl: string, cursor: string, limit: number): string {
  const queryAt = requestUrl.indexOf('?');
  const params = new URLSearchParams(queryAt < 0 ? '' : requestUrl.slice(queryAt + 1));
  params.set('cursor', cursor);
  params.set('limit', String(limit));
  // Characters that would end the <...> of the Link header are escaped, as a URL parser would.
  const path = (queryAt < 0 ? requestUrl : requestUrl.slice(0, queryAt)).replace(/[<>"\s]/g, encodeURIComponent);
  return `${path}?${params}`;
}
