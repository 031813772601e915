/**
 * The timelines (home, public, a tag's), the client API's hottest answers: written from JSON bytes
 * kept per post and per author, and registered apart from the bodies' parsers (`routes.ts`), so a
 * GET passes no multipart hooks.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Post } from '../../lib/types';
import { usernameKey } from '../../lib/validation';
import { setBounded } from '../cache/bounded';
import type { AuthUser } from '../domain/types';
import { keptBytes } from '../http/asciiJson';
import type { AuthorFacts } from '../users/mappers';
import { needs } from './http';
import { type MentionEntity, type Site, mentionOf, mentionsStillHere, postStatus, toAccount } from './mappers';
import type { PostOrigin } from '../posts/repository';
import { type ClientServices, type ListQuery, readListPage, sendList, siteOf, tokenUser, truthy } from './support';

/**
 * A status's JSON bytes on either side of its account, kept by what they are written from: a post
 * read by many is mapped, written and encoded once, and an answer is a copy of bytes (Node would
 * otherwise encode every 20 KB answer to UTF-8 again). Keyed by content, not by object, because a
 * reader with blocks gets copies of the shared posts (their comment counts without the blocked
 * people's).
 */
const keptStatusJson = new Map<string, [Buffer, Buffer]>();
const KEPT_STATUSES_MAX = 5_000;
const ACCOUNT_SLOT = '"account":null';

const statusKey = (site: Site, p: Post) =>
  `${site}|${p._id}|${p.updatedAt}|${p.likesCount}|${p.commentsCount}|${p.myReaction}|${p.creatorImage}|${p.imageInfo?.srcset.length ?? -1}`;

/**
 * The same parts by Post object when it mentions no one, with its author's key: the lists hand out
 * the posts they share (posts/reads.ts) again and again, so most statuses are found without building
 * their key. New counts come as a new object; whom a post mentions can change without one (a rename).
 */
const statusJsonByPost = new WeakMap<Post, { site: Site; parts: [Buffer, Buffer]; authorKey: string }>();

function statusJsonParts(site: Site, post: Post, authorKey: string, mentions: MentionEntity[]): [Buffer, Buffer] {
  // Whom it mentions is part of it: a mentioned person's rename changes the entry, not the post.
  const key = mentions.length > 0 ? `${statusKey(site, post)}|${JSON.stringify(mentions)}` : statusKey(site, post);
  let parts = keptStatusJson.get(key);
  if (!parts) {
    const json = JSON.stringify(postStatus(site, post, null, mentions));
    // Quotes inside strings are escaped in JSON, so the slot is found only where the field is.
    const at = json.indexOf(ACCOUNT_SLOT);
    parts = [keptBytes(json.slice(0, at + '"account":'.length)), keptBytes(json.slice(at + ACCOUNT_SLOT.length))];
    setBounded(keptStatusJson, key, parts, KEPT_STATUSES_MAX);
  }
  if (mentions.length === 0) statusJsonByPost.set(post, { site, parts, authorKey });
  return parts;
}

/** An author's Account as JSON bytes and as a mention, by the author cache's facts object (changed facts are a new one). */
const accountByFacts = new WeakMap<AuthorFacts, { site: Site; bytes: Buffer; mention: MentionEntity }>();

function accountOf(site: Site, facts: AuthorFacts) {
  let kept = accountByFacts.get(facts);
  if (kept?.site !== site) {
    const account = toAccount(site, facts);
    kept = { site, bytes: keptBytes(JSON.stringify(account)), mention: mentionOf(account) };
    accountByFacts.set(facts, kept);
  }
  return kept;
}

const OPEN = Buffer.from('['),
  COMMA = Buffer.from(','),
  CLOSE = Buffer.from(']');

/**
 * A viewer's last answer at each timeline address, sent again while it would be written the same:
 * the same site, the same Post objects (a post's content, counts and the viewer's reaction are its
 * object's: any change is a new one, a copy too) and the same facts objects of every author and
 * person mentioned, still kept by the authors' cache (a change or an expiry is a new object). Saves
 * the copy of ~23 KB per answer.
 */
interface KeptPage {
  site: Site;
  posts: Post[];
  keys: string[];
  facts: AuthorFacts[];
  bytes: Buffer;
}
const keptPages = new Map<string, KeptPage>();
const KEPT_PAGES_MAX = 256;

function stillWritten(page: KeptPage, services: ClientServices, site: Site, posts: Post[]): boolean {
  if (page.site !== site || page.posts.length !== posts.length) return false;
  for (let i = 0; i < posts.length; i++) if (page.posts[i] !== posts[i]) return false;
  for (let i = 0; i < page.keys.length; i++)
    if (services.users.authorKept(page.keys[i]) !== page.facts[i]) return false;
  return true;
}

/**
 * A timeline's answer as JSON bytes: the same statuses as `statusesOfPosts` (statuses.ts), from kept
 * bytes. `pageKey` names the viewer's address, whose last answer is kept (`keptPages`).
 */
export async function statusListJson(
  services: ClientServices,
  site: Site,
  posts: Post[],
  pageKey?: string,
): Promise<Buffer> {
  const last = pageKey === undefined ? undefined : keptPages.get(pageKey);
  if (last && stillWritten(last, services, site, posts)) return last.bytes;
  const kept = posts.map((post) => {
    const found = post.mentions?.length ? undefined : statusJsonByPost.get(post);
    return found?.site === site ? found : undefined;
  });
  const authorKeys = posts.map((post, i) => kept[i]?.authorKey ?? usernameKey(post.creator));
  const keys = [...authorKeys];
  for (const post of posts) if (post.mentions) for (const name of post.mentions) keys.push(usernameKey(name));
  const authors = await services.users.authorsByKey(keys);
  const parts: Buffer[] = [OPEN];
  let length = 2;
  for (let i = 0; i < posts.length; i++) {
    const facts = authors.get(authorKeys[i]);
    // An author gone since the list was read: their post is left out, as `statusesOfPosts` does.
    if (!facts) continue;
    if (parts.length > 1) parts.push(COMMA);
    const [before, after] =
      kept[i]?.parts ??
      statusJsonParts(
        site,
        posts[i],
        authorKeys[i],
        mentionsStillHere(posts[i].mentions, (key) => {
          const named = authors.get(key);
          return named && accountOf(site, named).mention;
        }),
      );
    const account = accountOf(site, facts).bytes;
    parts.push(before, account, after);
    length += (parts.length > 4 ? 1 : 0) + before.length + account.length + after.length;
  }
  parts.push(CLOSE);
  // A buffer of its own, not a slice of Node's shared pool: a kept page must not hold a whole pool.
  const bytes = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const part of parts) at += part.copy(bytes, at);
  // Kept only when every person was found: one gone now might not be gone at the next request.
  const facts = keys.map((key) => authors.get(key));
  if (pageKey !== undefined && facts.every((f) => f !== undefined))
    setBounded(keptPages, pageKey, { site, posts, keys, facts, bytes }, KEPT_PAGES_MAX);
  return bytes;
}

type TimelineRoute = { Querystring: ListQuery & { local?: string; remote?: string }; Params: Record<string, string> };

/** Mastodon's `local` and `remote` flags: `local` wins when both are set, as in Mastodon. */
const originOf = (query: TimelineRoute['Querystring']): PostOrigin =>
  truthy(query.local) ? 'local' : truthy(query.remote) ? 'remote' : 'any';

export const timelineEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, posts } = services;

  const timeline =
    (
      read: (
        viewer: AuthUser,
        request: FastifyRequest<TimelineRoute>,
        page: ReturnType<typeof readListPage>['page'],
      ) => Promise<Post[]>,
    ) =>
    async (request: FastifyRequest<TimelineRoute>, reply: FastifyReply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await read(viewer, request, list.page);
      const shown = sendList(request, reply, site, list, rows, (p) => p._id);
      const answer = await statusListJson(services, site, shown, `${viewer.id}|${request.url}`);
      return reply.type('application/json; charset=utf-8').send(answer);
    };

  app.get<TimelineRoute>(
    '/api/v1/timelines/home',
    { preValidation: needs('read:statuses') },
    timeline((viewer, _r, page) => posts.feed(viewer, 'following', page)),
  );
  // "Everyone": posts from elsewhere are never in it, so `local=true` and without it list the same,
  // and `remote=true` lists none.
  app.get<TimelineRoute>(
    '/api/v1/timelines/public',
    { preValidation: needs('read:statuses') },
    timeline((viewer, r, page) =>
      originOf(r.query) === 'remote' ? Promise.resolve([]) : posts.feed(viewer, 'all', page),
    ),
  );
  app.get<TimelineRoute>(
    '/api/v1/timelines/tag/:tag',
    { preValidation: needs('read:statuses') },
    timeline((viewer, r, page) => posts.tagged(viewer, r.params.tag, page, originOf(r.query))),
  );
};
