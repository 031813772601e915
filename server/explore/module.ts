/** Explore wired (issue 73): the window's reads, the kept trends, the per-reader service, the admins' hiding, and routes. */
import type { FastifyInstance } from 'fastify';
import type { Post } from '../../lib/types';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { Db } from '../db/database';
import type { PublishEvent } from '../events/domainEvents';
import { trendHiding } from './hiding';
import { exploreRepository } from './repository';
import { exploreAdminRoutes, exploreRoutes } from './routes';
import { type ExploreServiceDeps, exploreService } from './service';
import { keptTrends } from './trends';

export function exploreFeature(
  deps: {
    db: Db;
    caches: CacheRegistry;
    publish: PublishEvent;
    refreshMs: number;
    onError: (error: unknown) => void;
  } & Omit<ExploreServiceDeps, 'trends' | 'repo'>,
) {
  const repo = exploreRepository(deps.db.kysely);
  const trends = keptTrends({ repo, caches: deps.caches, refreshMs: deps.refreshMs, onError: deps.onError });
  const explore = exploreService({ ...deps, trends, repo });
  return { trends, explore, trendHiding: trendHiding({ db: deps.db, publish: deps.publish }) };
}

export type ExploreFeature = ReturnType<typeof exploreFeature>;

export async function registerExploreRoutes(
  app: FastifyInstance,
  deps: {
    explore: ExploreFeature;
    guards: Guards;
    caches: CacheRegistry;
    posts: { listText: (posts: Post[]) => string };
  },
): Promise<void> {
  await app.register(exploreRoutes, {
    prefix: '/api/explore',
    explore: deps.explore.explore,
    caches: deps.caches,
    listText: deps.posts.listText,
  });
  await app.register(exploreAdminRoutes, {
    prefix: '/api/admin/explore',
    hiding: deps.explore.trendHiding,
    guards: deps.guards,
  });
}
