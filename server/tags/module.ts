/** Followed tags wired (issue 73): the rows, the kept tags and heads the home feed reads, the service and routes. */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { Db } from '../db/database';
import type { PublishEvent } from '../events/domainEvents';
import { followedTagsCache } from './followedTags';
import { tagsRepository } from './repository';
import { tagsRoutes } from './routes';
import { type TagsService, tagsService } from './service';

/** Made before the posts, whose home feed reads the kept followed tags and heads. */
export function tagsFeature(deps: { db: Db; caches: CacheRegistry; ttlMs: number; publish: PublishEvent }) {
  const tags = tagsRepository(deps.db.kysely);
  return {
    followedTags: followedTagsCache(deps.caches, tags, deps.ttlMs),
    tags: tagsService({ tags, publish: deps.publish }),
  };
}

export async function registerTagsRoutes(app: FastifyInstance, deps: { tags: TagsService; guards: Guards }) {
  await app.register(tagsRoutes, { prefix: '/api/tags', tags: deps.tags, guards: deps.guards });
}
