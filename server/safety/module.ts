/** Blocks and mutes wired: each reader's hidden people, kept, and the service (`context.ts`, `app.ts`). */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import { hiddenAuthorsCache } from './hiddenAuthors';
import type { SafetyRepository } from './repository';
import { safetyRoutes } from './routes';
import { type SafetyService, type SafetyServiceDeps, safetyService } from './service';

export function safetyFeature({
  data,
  publish,
  toProfile,
  caches,
  ttlMs,
}: SafetyServiceDeps & { data: { safety: SafetyRepository }; caches: CacheRegistry; ttlMs: number }) {
  return {
    /** Blocks and mutes (issue 23). */
    safety: safetyService({ data, publish, toProfile }),
    hiddenAuthors: hiddenAuthorsCache(caches, (readerId) => data.safety.hiddenAuthorsOf(readerId), { ttlMs }),
  };
}

export async function registerSafetyRoutes(app: FastifyInstance, deps: { safety: SafetyService; guards: Guards }) {
  await app.register(safetyRoutes, { prefix: '/api/users', safety: deps.safety, guards: deps.guards });
}
