/** `GET /api/v1/notifications`: follows, favourites (likes of posts) and mentions (comments on one's posts, @names). */
import type { FastifyPluginAsync } from 'fastify';
import type { AppNotification, Comment } from '../../lib/types';
import { NotFoundError } from '../domain/errors';
import { isUuid } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import { needs } from './http';
import { notificationType } from '../notifications/mastodonTypes';
import { type Site, commentStatus } from './mappers';
import { languagesOf, statusesOfPosts } from './statuses';
import { type ClientServices, type ListQuery, accountsFor, readListPage, sendList, siteOf, tokenUser } from './support';

/** One notification as Mastodon's entity; null for what it cannot show (a comment's like, a status gone). */
export function notificationEntities(services: ClientServices, viewer: AuthUser, site: Site) {
  const { users, posts } = services;
  const accountOf = accountsFor(users, viewer, site);
  const statusOf = async (n: AppNotification) => {
    if (!n.post) return null;
    // A post gone since, or hidden now, leaves the notification without its status.
    const post = await posts.one(viewer, n.post._id).catch(() => null);
    if (!post) return null;
    if (!n.comment) return (await statusesOfPosts(services, viewer, site, [post]))[0];
    const [author, postAuthor, languageOf] = await Promise.all([
      accountOf(n.actor.username),
      accountOf(post.creator),
      languagesOf(services, [n.actor.username]),
    ]);
    const comment: Comment = {
      commentId: n.comment.commentId,
      message: n.comment.message,
      creator: n.actor.username,
      creatorImage: n.actor.avatar,
      likesCount: 0,
      dislikesCount: 0,
      myReaction: null,
      createdAt: n.createdAt,
    };
    return commentStatus(site, comment, post, postAuthor.id, author, languageOf(n.actor.username));
  };
  return async (n: AppNotification) => {
    const type = notificationType(n.type);
    if (!type) return null;
    const account = await accountOf(n.actor.username).catch(() => null);
    if (!account) return null;
    // A follow and a follow request are about the person alone.
    const aboutPerson = type === 'follow' || type === 'follow_request';
    const status = aboutPerson ? null : await statusOf(n);
    if (!aboutPerson && !status) return null;
    return { id: n.id, type, created_at: n.createdAt, account, ...(status ? { status } : {}) };
  };
}

export const notificationEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, notifications, limits } = services;

  const entityOf = (viewer: AuthUser, site: Site) => notificationEntities(services, viewer, site);

  app.get<{ Querystring: ListQuery }>(
    '/api/v1/notifications',
    { preValidation: needs('read:notifications') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await notifications.list(viewer, list.page);
      const shown = sendList(request, reply, site, list, rows, (n) => n.id);
      const mapped = await Promise.all(shown.map(entityOf(viewer, site)));
      return mapped.filter((n) => n !== null);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/notifications/:id',
    { preValidation: needs('read:notifications') },
    async (request) => {
      const viewer = tokenUser(request);
      const found = isUuid(request.params.id) ? await notifications.find(viewer.id, request.params.id) : null;
      const entity = found && (await entityOf(viewer, siteOf(config, request))(found));
      if (!entity) throw new NotFoundError('Record not found');
      return entity;
    },
  );

  app.post(
    '/api/v1/notifications/clear',
    { preValidation: [needs('write:notifications'), limits.writes] },
    async (request) => {
      await notifications.remove(tokenUser(request), null);
      return {};
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/v1/notifications/:id/dismiss',
    { preValidation: [needs('write:notifications'), limits.writes] },
    async (request) => {
      await notifications.remove(tokenUser(request), request.params.id);
      return {};
    },
  );
};
