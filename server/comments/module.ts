/** Comments wired: their shared rows and pages (`commentCache`), their read model (`commentViews`) and the service (`context.ts`, `app.ts`). */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { Db } from '../db/database';
import { COMMENT_REACTIONS, reactionsByUser } from '../reactions/repository';
import { commentCache as createCommentCache } from './commentCache';
import { commentViews } from './commentViews';
import { commentsByIds } from './repository';
import { commentsRoutes } from './routes';
import { type CommentsServiceDeps, commentsService } from './service';

export type CommentsFeatureDeps = Omit<CommentsServiceDeps, 'commentCache' | 'views'> & {
  db: Db;
  caches: CacheRegistry;
  ttlMs: number;
};

export function commentsFeature({ db, caches, ttlMs, ...deps }: CommentsFeatureDeps) {
  const commentCache = createCommentCache(
    caches,
    (viewerId, ids) => commentsByIds(db.kysely, viewerId, ids),
    (viewerId, max) => reactionsByUser(db.kysely, COMMENT_REACTIONS, viewerId, max),
    ttlMs,
  );
  const views = commentViews(caches, commentCache);
  return { comments: commentsService({ ...deps, commentCache, views }), commentCache };
}

export async function registerCommentsRoutes(
  app: FastifyInstance,
  deps: { comments: ReturnType<typeof commentsService>; guards: Guards },
) {
  await app.register(commentsRoutes, { prefix: '/api/posts', comments: deps.comments, guards: deps.guards });
}
