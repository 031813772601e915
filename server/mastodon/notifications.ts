/** `GET /api/v1/notifications`: follows, favourites (likes of posts) and mentions (comments on one's posts, @names). */
import type { FastifyPluginAsync } from 'fastify';
import type { AppNotification } from '../../lib/types';
import { needs } from './http';
import { commentStatus, notificationType } from './mappers';
import { statusesOfPosts } from './statuses';
import { type ClientServices, type ListQuery, accountsFor, readListPage, sendList, siteOf, tokenUser } from './support';

export const notificationEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, posts, notifications } = services;

  app.get<{ Querystring: ListQuery }>(
    '/api/v1/notifications',
    { preValidation: needs('read:notifications') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await notifications.list(viewer, list.page);
      const shown = sendList(request, reply, site, list, rows, (n) => n.id);
      const accountOf = accountsFor(users, viewer, site);
      const statusOf = async (n: AppNotification) => {
        if (!n.post) return null;
        // A post gone since, or hidden now, leaves the notification without its status.
        const post = await posts.one(viewer, n.post._id).catch(() => null);
        if (!post) return null;
        if (!n.comment) return (await statusesOfPosts(services, viewer, site, [post]))[0];
        const author = await accountOf(n.actor.username);
        const postAuthor = await accountOf(post.creator);
        return commentStatus(
          site,
          {
            commentId: n.comment.commentId,
            message: n.comment.message,
            creator: n.actor.username,
            creatorImage: n.actor.avatar,
            likesCount: 0,
            dislikesCount: 0,
            myReaction: null,
            createdAt: n.createdAt,
          },
          post._id,
          postAuthor.id,
          author,
        );
      };
      const mapped = await Promise.all(
        shown.map(async (n) => {
          const type = notificationType(n.type);
          if (!type) return null;
          const account = await accountOf(n.actor.username).catch(() => null);
          if (!account) return null;
          const status = type === 'follow' ? null : await statusOf(n);
          if (type !== 'follow' && !status) return null;
          return { id: n.id, type, created_at: n.createdAt, account, ...(status ? { status } : {}) };
        }),
      );
      return mapped.filter((n) => n !== null);
    },
  );
};
