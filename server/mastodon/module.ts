/**
 * The client API wired from the services it receives: the Mastodon adapter with its streams, and
 * the OAuth consent pages and authorised apps list it needs (`app.ts` registers it).
 */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { AuthService } from '../auth/service';
import type { DomainEvents } from '../events/domainEvents';
import type { ExploreFeature } from '../explore/module';
import { rateLimit } from '../http/rateLimits';
import type { RedisFallback } from '../instance/redisFallback';
import type { StreamSlots } from '../notifications/streamSlots';
import { authorizedAppsRoutes, oauthConsentRoutes } from '../oauth/routes';
import type { OAuthService } from '../oauth/service';
import { idempotentCalls, sharedIdempotentCalls } from './idempotency';
import { clientApi } from './routes';
import { statusViews } from './statusViews';
import { clientStreams } from './streaming';
import type { ClientServices } from './support';

export interface ClientApiDeps extends Omit<
  ClientServices,
  'limits' | 'idempotent' | 'push' | 'statusViews' | 'trends'
> {
  explore: Pick<ExploreFeature, 'explore'>;
  caches: CacheRegistry;
  push: { service: NonNullable<ClientServices['push']> } | null;
  oauth: OAuthService;
  auth: AuthService;
  events: DomainEvents;
  streamSlots: StreamSlots;
  redis: { client: Redis; fallback: RedisFallback } | null;
  guards: Guards;
  /** The `/api/*` writes' limit, shared with the client API's writes. */
  writesPerUser: ReturnType<typeof rateLimit>;
}

export async function registerClientApi(app: FastifyInstance, deps: ClientApiDeps) {
  const { config, redis } = deps;
  await app.register(authorizedAppsRoutes, { prefix: '/api/auth', oauth: deps.oauth, guards: deps.guards });
  await app.register(oauthConsentRoutes, { oauth: deps.oauth, auth: deps.auth, config });
  const services: ClientServices = {
    ...{ config, users: deps.users, posts: deps.posts, comments: deps.comments, media: deps.media },
    saves: deps.saves,
    tags: deps.tags,
    trends: deps.explore.explore,
    ...{ notifications: deps.notifications, safety: deps.safety, push: deps.push?.service ?? null },
    statusViews: statusViews(deps.caches, deps.users),
    idempotent: redis ? sharedIdempotentCalls(redis.client, redis.fallback) : idempotentCalls(),
    limits: {
      writes: deps.writesPerUser.withHeaders,
      uploads: rateLimit(app, 'uploads', config.rateLimits.uploadsPerUserPerMinute, (r) => r.user?.id ?? null)
        .withHeaders,
    },
  };
  const streams = clientStreams({ events: deps.events, services, slots: deps.streamSlots, log: app.log });
  app.decorate('clientStreams', streams);
  await app.register(clientApi, {
    oauth: deps.oauth,
    auth: deps.auth,
    config,
    services,
    streaming: { streams, heartbeatMs: config.sseHeartbeatMs },
  });
}
