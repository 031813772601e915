/** Saved posts wired (issue 73): the rows, each reader's kept saved ids, the service and its routes. */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { Db } from '../db/database';
import { savesRepository } from './repository';
import { savesRoutes } from './routes';
import { savedIdsCache } from './savedIds';
import { type SavesServiceDeps, type SavesService, savesService } from './service';

/** The rows and the kept ids: made before the posts, whose reads ask which posts a reader saved. */
export function savedIdsFeature(deps: { db: Db; caches: CacheRegistry; ttlMs: number }) {
  const saves = savesRepository(deps.db.kysely);
  return { saves, savedIds: savedIdsCache(deps.caches, saves, deps.ttlMs) };
}

export const savesFeature = (deps: SavesServiceDeps) => savesService(deps);

export async function registerSavesRoutes(app: FastifyInstance, deps: { saves: SavesService; guards: Guards }) {
  await app.register(savesRoutes, { prefix: '/api/posts', saves: deps.saves, guards: deps.guards });
}
