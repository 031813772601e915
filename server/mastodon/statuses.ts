/**
 * Statuses and timelines. A status with `in_reply_to_id` is a comment on that post; any other
 * carries exactly one uploaded image and is a post, its tags the text's `#hashtags`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Post } from '../../lib/types';
import type { AuthUser } from '../domain/types';
import { HttpError } from '../http/errors';
import { needs } from './http';
import { idempotentCalls } from './idempotency';
import { type Site, commentStatus, hashtagsOf, postStatus } from './mappers';
import {
  type ClientServices,
  type ListQuery,
  accountsFor,
  readListPage,
  sendList,
  siteOf,
  tokenUser,
  truthy,
} from './support';

/** Mastodon's text when a status has nothing a post needs. */
export const IMAGE_REQUIRED =
  'Validation failed: A status needs exactly one image (media_ids), or in_reply_to_id to comment on a post';
/** How many comments `context` lists at most. */
const CONTEXT_COMMENTS_MAX = 200;

export async function statusesOfPosts(services: ClientServices, viewer: AuthUser, site: Site, posts: Post[]) {
  const accountOf = accountsFor(services.users, viewer, site);
  return Promise.all(posts.map(async (post) => postStatus(site, post, await accountOf(post.creator))));
}

type IdRoute = { Params: { id: string } };

interface StatusBody {
  status?: unknown;
  media_ids?: unknown;
  in_reply_to_id?: unknown;
  sensitive?: unknown;
  spoiler_text?: unknown;
}

export const statusEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, posts, comments, media, limits } = services;
  const write = (scope: string) => [needs(scope), limits.writes];

  const one = async (viewer: AuthUser, site: Site, id: string) => {
    const post = await posts.one(viewer, id);
    return (await statusesOfPosts(services, viewer, site, [post]))[0];
  };

  const once = idempotentCalls();

  app.post<{ Body: StatusBody }>('/api/v1/statuses', { preValidation: write('write:statuses') }, async (request) => {
    const viewer = tokenUser(request);
    const key = request.headers['idempotency-key'];
    return once(viewer.id, typeof key === 'string' ? key : undefined, () => createStatus(request, viewer));
  });

  async function createStatus(request: FastifyRequest<{ Body: StatusBody }>, viewer: AuthUser) {
    const site = siteOf(config, request);
    const body = request.body ?? {};
    const text = typeof body.status === 'string' ? body.status : '';
    if (typeof body.in_reply_to_id === 'string' && body.in_reply_to_id) {
      const post = await posts.one(viewer, body.in_reply_to_id);
      const comment = await comments.add(viewer, post._id, text);
      const accountOf = accountsFor(users, viewer, site);
      const [author, postAuthor] = await Promise.all([accountOf(comment.creator), accountOf(post.creator)]);
      return commentStatus(site, comment, post._id, postAuthor.id, author);
    }
    const ids = Array.isArray(body.media_ids) ? body.media_ids : body.media_ids ? [body.media_ids] : [];
    if (ids.length !== 1 || typeof ids[0] !== 'string') throw new HttpError(422, 'UnprocessableEntity', IMAGE_REQUIRED);
    const upload = await media.findOwn(viewer.id, ids[0]);
    if (!upload)
      throw new HttpError(422, 'UnprocessableEntity', 'Validation failed: media_ids names no upload of yours');
    const created = await posts.create(viewer, {
      message: text,
      image: upload.url,
      tags: hashtagsOf(text),
      ...(upload.row.description ? { alt: upload.row.description } : {}),
      ...(truthy(body.sensitive) !== undefined ? { sensitive: truthy(body.sensitive) } : {}),
      ...(typeof body.spoiler_text === 'string' ? { spoiler: body.spoiler_text } : {}),
    });
    return (await statusesOfPosts(services, viewer, site, [created]))[0];
  }

  app.get<IdRoute>('/api/v1/statuses/:id', { preValidation: needs('read:statuses') }, async (request) =>
    one(tokenUser(request), siteOf(config, request), request.params.id),
  );

  // An edit changes the text (and so the tags) and the content warning; the image stays.
  app.put<IdRoute & { Body: StatusBody }>(
    '/api/v1/statuses/:id',
    { preValidation: write('write:statuses') },
    async (request) => {
      const viewer = tokenUser(request);
      const body = request.body ?? {};
      const text = typeof body.status === 'string' ? body.status : undefined;
      const edited = await posts.edit(viewer, request.params.id, {
        ...(text !== undefined ? { message: text, tags: hashtagsOf(text) } : {}),
        ...(truthy(body.sensitive) !== undefined ? { sensitive: truthy(body.sensitive) } : {}),
        ...(typeof body.spoiler_text === 'string' ? { spoiler: body.spoiler_text } : {}),
      });
      return (await statusesOfPosts(services, viewer, siteOf(config, request), [edited]))[0];
    },
  );

  app.delete<IdRoute>('/api/v1/statuses/:id', { preValidation: write('write:statuses') }, async (request) => {
    const viewer = tokenUser(request);
    // Mastodon answers the deleted status (with its text, for "delete and redraft").
    const status = await one(viewer, siteOf(config, request), request.params.id);
    await posts.remove(viewer, request.params.id);
    return status;
  });

  app.get<IdRoute>('/api/v1/statuses/:id/context', { preValidation: needs('read:statuses') }, async (request) => {
    const viewer = tokenUser(request);
    const site = siteOf(config, request);
    const post = await posts.one(viewer, request.params.id);
    const all = [];
    for (let cursor: string | null = null; all.length < CONTEXT_COMMENTS_MAX;) {
      const page = await comments.list(viewer, post._id, { cursor, limit: 50 });
      all.push(...page.slice(0, 50));
      if (page.length <= 50) break;
      cursor = page[49].commentId;
    }
    const accountOf = accountsFor(users, viewer, site);
    const postAuthor = await accountOf(post.creator);
    // Oldest first, as a thread reads.
    const descendants = await Promise.all(
      all.reverse().map(async (c) => commentStatus(site, c, post._id, postAuthor.id, await accountOf(c.creator))),
    );
    return { ancestors: [], descendants };
  });

  for (const [action, wanted] of [
    ['favourite', true],
    ['unfavourite', false],
  ] as const)
    app.post<IdRoute>(
      `/api/v1/statuses/:id/${action}`,
      { preValidation: write('write:favourites') },
      async (request) => {
        const viewer = tokenUser(request);
        const site = siteOf(config, request);
        const post = await posts.one(viewer, request.params.id);
        // The service toggles; a favourite that is already there (or not) is left as it is.
        if ((post.myReaction === 'like') !== wanted) await posts.react(viewer, post._id, 'like');
        return one(viewer, site, post._id);
      },
    );

  const timeline =
    (
      read: (
        viewer: AuthUser,
        request: { params: Record<string, string> },
        page: ReturnType<typeof readListPage>['page'],
      ) => Promise<Post[]>,
    ) =>
    async (
      request: FastifyRequest<{ Querystring: ListQuery; Params: Record<string, string> }>,
      reply: FastifyReply,
    ) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await read(viewer, request, list.page);
      return statusesOfPosts(
        services,
        viewer,
        site,
        sendList(request, reply, site, list, rows, (p) => p._id),
      );
    };

  app.get<{ Querystring: ListQuery; Params: Record<string, string> }>(
    '/api/v1/timelines/home',
    { preValidation: needs('read:statuses') },
    timeline((viewer, _r, page) => posts.feed(viewer, 'following', page)),
  );
  // Every post here is local: `local=true` and without it list the same.
  app.get<{ Querystring: ListQuery; Params: Record<string, string> }>(
    '/api/v1/timelines/public',
    { preValidation: needs('read:statuses') },
    timeline((viewer, _r, page) => posts.feed(viewer, 'all', page)),
  );
  app.get<{ Querystring: ListQuery; Params: Record<string, string> }>(
    '/api/v1/timelines/tag/:tag',
    { preValidation: needs('read:statuses') },
    timeline((viewer, r, page) => posts.tagged(viewer, r.params.tag, page)),
  );
};
