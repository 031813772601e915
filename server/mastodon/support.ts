/** What the client API's endpoints share: the services they are given, links, list paging, accounts. */
import type { TagsService } from '../tags/service';
import type { SavesService } from '../saves/service';
import type { ExploreService } from '../explore/service';
import type { StatusViews } from './statusViews';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidError, UnauthorizedError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { CommentsService } from '../comments/service';
import type { Config } from '../config';
import type { LimitCheck } from '../http/rateLimits';
import type { MediaService } from '../media/service';
import type { NotificationsService } from '../notifications/service';
import type { PostsService } from '../posts/service';
import type { PushService } from '../push/service';
import type { SafetyService } from '../safety/service';
import type { UsersService } from '../users/service';
import { pathOf } from './http';
import type { IdempotentCalls } from './idempotency';
import { type Account, type Site, toAccount } from './mappers';

export interface ClientServices {
  config: Config;
  users: UsersService;
  posts: PostsService;
  comments: CommentsService;
  /** Saved posts, the client API's bookmarks (issue 73). */
  saves: SavesService;
  /** Followed hashtags (issue 73). */
  tags: TagsService;
  /** Explore's trending posts and tags, and people to follow (issue 73). */
  trends: ExploreService;
  media: MediaService;
  notifications: NotificationsService;
  safety: SafetyService;
  /** Web Push subscriptions (issue 74); null when the instance has pushes off. */
  push: PushService | null;
  /** The `/api/*` rate limits, per user, with the `X-RateLimit-*` headers (`LimitCheck.withHeaders`). */
  limits: { writes: LimitCheck['withHeaders']; uploads: LimitCheck['withHeaders'] };
  /** Statuses and accounts as JSON bytes, made once per post and author (`statusViews.ts`). */
  statusViews: StatusViews;
  /** `Idempotency-Key` on status creation (`idempotency.ts`): across instances when they share Redis. */
  idempotent: IdempotentCalls;
}

export const siteOf = (config: Config, request: FastifyRequest): Site =>
  config.publicOrigin ?? `${request.protocol}://${request.host}`;

/** The person behind the token (the scope guard has made sure there is one). */
export function tokenUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new UnauthorizedError('The access token is invalid');
  return request.user;
}

export interface ListQuery {
  max_id?: string;
  since_id?: string;
  min_id?: string;
  limit?: string | number;
}

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 40;

function idParam(name: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!isUuid(value)) throw new InvalidError(`${name} must be an id from this list`);
  return value;
}

/**
 * Mastodon's paging on the services' keyset pages: `max_id` is the cursor (older than); `since_id`
 * and `min_id` keep the newest page's items newer than the id (ids are UUIDv7: they sort by time).
 */
export function readListPage(query: ListQuery): { page: Page; newerThan: string | null } {
  const raw = query.limit === undefined || query.limit === '' ? LIST_LIMIT_DEFAULT : Number(query.limit);
  if (!Number.isInteger(raw) || raw < 1) throw new InvalidError('limit must be a positive whole number');
  const limit = Math.min(raw, LIST_LIMIT_MAX);
  const cursor = idParam('max_id', query.max_id);
  const newerThan = idParam('min_id', query.min_id) ?? idParam('since_id', query.since_id);
  return { page: { limit, cursor }, newerThan };
}

/** An id as a query value, encoded as URLSearchParams encodes it (ids are UUIDs: as they are). */
const cursorParam = (id: string) =>
  /^[0-9A-Za-z-]*$/.test(id) ? id : new URLSearchParams({ v: id }).toString().slice(2);

/** The page's items (the services read one more, which only says that more exist) and the Link header. */
export function sendList<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  site: Site,
  { page, newerThan }: { page: Page; newerThan: string | null },
  rows: T[],
  idOf: (item: T) => string,
): T[] {
  let items = rows.slice(0, page.limit);
  if (newerThan) items = items.filter((item) => idOf(item) > newerThan);
  const next = rows.length > page.limit && !newerThan && items.length > 0;
  if (items.length === 0) return items;
  // The list's own address and query without its cursors, `limit` as served; the cursor goes last.
  const q = new URLSearchParams(request.query as Record<string, string>);
  for (const name of ['max_id', 'min_id', 'since_id']) q.delete(name);
  q.set('limit', String(page.limit));
  const address = `<${site}${pathOf(request.url)}?${q}&`;
  const prev = `${address}min_id=${cursorParam(idOf(items[0]))}>; rel="prev"`;
  reply.header(
    'Link',
    next ? `${address}max_id=${cursorParam(idOf(items[items.length - 1]))}>; rel="next", ${prev}` : prev,
  );
  return items;
}

/** Accounts by username for one answer: each person looked up once however many statuses they wrote. */
export function accountsFor(users: UsersService, viewer: AuthUser, site: Site) {
  const seen = new Map<string, Promise<Account>>();
  return (username: string): Promise<Account> => {
    let account = seen.get(username);
    if (!account) {
      account = users.profile(viewer, username).then((profile) => toAccount(site, profile));
      seen.set(username, account);
    }
    return account;
  };
}

/** A form's `true`/`1` as a boolean (JSON sends booleans already). */
export const truthy = (value: unknown): boolean | undefined =>
  value === undefined || value === null || value === ''
    ? undefined
    : value === true || value === 'true' || value === '1';
