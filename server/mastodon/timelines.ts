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
import { type MentionEntity, type Site, mentionOf, postStatus, toAccount } from './mappers';
import { type ClientServices, type ListQuery, readListPage, sendList, siteOf, tokenUser } from './support';

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
    parts = [
      keptBytes(json.slice(0, at + '"account":'.length), 'utf8'),
      keptBytes(json.slice(at + ACCOUNT_SLOT.length), 'utf8'),
    ];
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
    kept = { site, bytes: keptBytes(JSON.stringify(account), 'utf8'), mention: mentionOf(account) };
    accountByFacts.set(facts, kept);
  }
  return kept;
}

const OPEN = Buffer.from('['),
  COMMA = Buffer.from(','),
  CLOSE = Buffer.from(']');

/** A timeline's answer as JSON bytes: the same statuses as `statusesOfPosts` (statuses.ts), from kept bytes. */
export async function statusListJson(services: ClientServices, site: Site, posts: Post[]): Promise<Buffer> {
  const kept = posts.map((post) => {
    const found = post.mentions?.length ? undefined : statusJsonByPost.get(post);
    return found?.site === site ? found : undefined;
  });
  const authorKeys = posts.map((post, i) => kept[i]?.authorKey ?? usernameKey(post.creator));
  const keys = [...authorKeys];
  for (const post of posts) if (post.mentions) for (const name of post.mentions) keys.push(usernameKey(name));
  const authors = await services.users.authorsByKey(keys);
  const parts: Buffer[] = [OPEN];
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
        // Those a post names who are still here (a deleted person is left out).
        (posts[i].mentions ?? []).flatMap((name) => {
          const named = authors.get(usernameKey(name));
          return named ? [accountOf(site, named).mention] : [];
        }),
      );
    parts.push(before, accountOf(site, facts).bytes, after);
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

type TimelineRoute = { Querystring: ListQuery; Params: Record<string, string> };

export const timelineEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, posts } = services;

  const timeline =
    (
      read: (
        viewer: AuthUser,
        request: { params: Record<string, string> },
        page: ReturnType<typeof readListPage>['page'],
      ) => Promise<Post[]>,
    ) =>
    async (request: FastifyRequest<TimelineRoute>, reply: FastifyReply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await read(viewer, request, list.page);
      const shown = sendList(request, reply, site, list, rows, (p) => p._id);
      return reply.type('application/json; charset=utf-8').send(await statusListJson(services, site, shown));
    };

  app.get<TimelineRoute>(
    '/api/v1/timelines/home',
    { preValidation: needs('read:statuses') },
    timeline((viewer, _r, page) => posts.feed(viewer, 'following', page)),
  );
  // "Everyone": posts from elsewhere are never in it, so `local=true` and without it list the same.
  app.get<TimelineRoute>(
    '/api/v1/timelines/public',
    { preValidation: needs('read:statuses') },
    timeline((viewer, _r, page) => posts.feed(viewer, 'all', page)),
  );
  app.get<TimelineRoute>(
    '/api/v1/timelines/tag/:tag',
    { preValidation: needs('read:statuses') },
    timeline((viewer, r, page) => posts.tagged(viewer, r.params.tag, page)),
  );
};
