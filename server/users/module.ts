/**
 * People wired: authors' kept facts, the users service with its link verification, and the
 * account's export and deletion (`context.ts` builds it, `app.ts` registers its routes).
 */
import type { FastifyInstance } from 'fastify';
import { links } from '../../lib/pages';
import type { Guards } from '../auth/guard';
import type { CacheRegistry } from '../cache/registry';
import type { Config } from '../config';
import { guardedFetch } from '../outgoing/outgoingGuard';
import type { MediaStorage } from '../media/storage';
import { accountRoutes } from './accountRoutes';
import { authorCache } from './authorCache';
import { followRequestsCache } from './followRequestsCache';
import { type DeletionDeps, accountDeletion } from './deletion';
import { type ExportDeps, accountExport } from './export';
import { VERIFY_MAX_BYTES, linkVerification } from './linkVerification';
import { followRequestRoutes } from './followRequestRoutes';
import { peopleRoutes } from './peopleRoutes';
import { usersRoutes } from './routes';
import { type UsersService, type UsersServiceDeps, usersService } from './service';

type Log = { warn(obj: object, message: string): void; error(obj: object, message: string): void };

export type UsersFeatureDeps = Omit<UsersServiceDeps, 'authors' | 'followRequests' | 'verifyLinks' | 'data'> &
  Pick<DeletionDeps, 'twoFactor' | 'farewell' | 'removeArchives'> & {
    config: Config;
    data: UsersServiceDeps['data'] & DeletionDeps['data'] & ExportDeps['data'];
    storage: MediaStorage;
    caches: CacheRegistry;
    twoFactorEnabled: ExportDeps['twoFactorEnabled'];
    log: Log;
  };

export type UsersFeature = ReturnType<typeof usersFeature>;

export function usersFeature({
  config,
  data,
  storage,
  caches,
  log,
  twoFactor,
  farewell,
  removeArchives,
  ...deps
}: UsersFeatureDeps) {
  const authors = authorCache(caches, (keys) => data.users.usersNamed(keys), { ttlMs: config.postCacheMs });
  const followRequests = followRequestsCache(caches, (ids) => data.users.followRequestsTo(ids), {
    ttlMs: config.postCacheMs,
  });
  // Private addresses (and http pages) only where federation allows them: tests, local trials.
  const allowPrivateAddress = config.federation?.allowPrivateAddress ?? false;
  const verifier = linkVerification({
    findUser: (id) => data.users.findUserById(id),
    replaceFields: (id, before, after) => data.users.replaceProfileFields(id, before, after),
    fetchPage: (url) =>
      guardedFetch(url, {
        allowPrivateAddress,
        accept: 'text/html,application/xhtml+xml',
        maxBytes: VERIFY_MAX_BYTES,
        userAgent: `Posts (+${config.siteUrl})`,
      }),
    profileUrlsOf: (user) => [
      new URL(links.profile(user.username), config.siteUrl).href,
      ...(config.federation ? [new URL(`/users/${user.id}`, config.federation.origin).href] : []),
    ],
    allowHttp: allowPrivateAddress,
    publish: deps.publish,
    onError: (error, what) => log.warn({ err: error }, what),
  });
  return {
    users: usersService({ ...deps, data, authors, followRequests, verifyLinks: verifier.start }),
    authors,
    followRequests,
    /** The signed-in user's data export (zip) and account deletion. */
    exports: accountExport({ data, storage, twoFactorEnabled: deps.twoFactorEnabled }),
    deletion: accountDeletion({
      data,
      storage,
      twoFactor,
      checkPassword: deps.checkPassword,
      publish: deps.publish,
      onFilesLeft: (error) => log.error({ err: error }, "removing a deleted account's files failed"),
      removeArchives,
      farewell,
    }),
  };
}

export async function registerUsersRoutes(
  app: FastifyInstance,
  deps: Pick<UsersFeature, 'exports' | 'deletion'> & {
    config: Config;
    users: UsersService;
    guards: Guards;
  },
) {
  const { config, guards } = deps;
  await app.register(accountRoutes, {
    prefix: '/api/users',
    exports: deps.exports,
    deletion: deps.deletion,
    guards,
    exportsPerHour: config.rateLimits.exportsPerUserPerHour,
    secureCookies: config.secureCookies,
  });
  await app.register(usersRoutes, { prefix: '/api/users', users: deps.users, guards });
  await app.register(followRequestRoutes, { prefix: '/api/follow-requests', users: deps.users, guards });
  await app.register(peopleRoutes, {
    prefix: '/api/people',
    users: deps.users,
    guards,
    suggestionsPerMinute: config.rateLimits.suggestionsPerUserPerMinute,
  });
}
