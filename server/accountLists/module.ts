/**
 * Follows, blocks and mutes as Mastodon's CSV lists, wired (issue 76): the service, and the worker
 * that runs imports' rows in the background, resumed after a restart (`context.ts`, `app.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { UsersRepository } from '../users/repository';
import { accountListsRepository } from './repository';
import { accountListsRoutes } from './routes';
import { type AccountListsDeps, accountListsService } from './service';
import { importWorker } from './worker';

export type AccountListsFeature = ReturnType<typeof accountListsFeature>;

export function accountListsFeature({
  config,
  db,
  data,
  log,
  ...deps
}: Pick<AccountListsDeps, 'users' | 'safety' | 'lookUpRemote'> & {
  config: Config;
  db: Db;
  data: { users: Pick<UsersRepository, 'findUserById'> };
  log: { error(obj: object, message: string): void };
}) {
  const repo = accountListsRepository(db.kysely);
  const accountLists = accountListsService({
    ...deps,
    repo,
    // A job runs with no session: its owner as the services' viewer, while they are a person here.
    ownerOf: async (id) => {
      const row = await data.users.findUserById(id);
      return row && !row.domain ? { id: row.id, username: row.username, role: row.role, sessionId: '' } : null;
    },
    ownHost: new URL(config.federation?.origin ?? config.siteUrl).host,
    wake: () => listImports.wake(),
  });
  const listImports = importWorker({
    repo,
    run: accountLists.runJob,
    onError: (error) => log.error({ err: error }, 'an account list import failed; trying again later'),
  });
  return { accountLists, listImports };
}

export async function registerAccountListsRoutes(
  app: FastifyInstance,
  deps: Pick<AccountListsFeature, 'accountLists'> & { guards: Guards },
) {
  await app.register(accountListsRoutes, { prefix: '/api/users', lists: deps.accountLists, guards: deps.guards });
}
