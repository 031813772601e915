/**
 * Instagram archives and Posts exports imported as posts, wired (issue 76, items 1 and 3): the service, and its worker,
 * the account list imports' (`accountLists/worker.ts`) over this feature's jobs, resumed after a
 * restart (`context.ts` starts and stops it, `app.ts` registers the routes).
 */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { UsersRepository } from '../users/repository';
import { importWorker } from '../accountLists/worker';
import { UPLOAD_MAX_BYTES } from '../../lib/limits';
import { instagramImportsRepository } from './repository';
import { instagramImportRoutes } from './routes';
import { type InstagramImportDeps, instagramImportService } from './service';

export type InstagramImportFeature = ReturnType<typeof instagramImportFeature>;

/** A posts list of this size is some 100,000 posts: more than anyone's archive holds. */
const JSON_MAX_BYTES = 64 * 1024 * 1024;

export function instagramImportFeature({
  config,
  db,
  data,
  log,
  ...deps
}: Pick<InstagramImportDeps, 'media' | 'posts' | 'profile'> & {
  config: Config;
  db: Db;
  data: { users: Pick<UsersRepository, 'findUserById'> };
  log: { error(obj: object, message: string): void };
}) {
  const repo = instagramImportsRepository(db.kysely);
  const instagramImports = instagramImportService({
    ...deps,
    repo,
    ownerOf: async (id) => {
      const row = await data.users.findUserById(id);
      return row && !row.domain ? { id: row.id, username: row.username, role: row.role, sessionId: '' } : null;
    },
    dir: config.instagramImport.dir,
    limits: {
      photoBytes: UPLOAD_MAX_BYTES,
      jsonBytes: JSON_MAX_BYTES,
      entries: 200_000,
      photosPerPost: config.maxPostImages,
      posts: 20_000,
    },
    wake: () => instagramWorker.wake(),
  });
  const instagramWorker = importWorker({
    repo,
    run: instagramImports.runJob,
    onError: (error) => log.error({ err: error }, 'an Instagram import failed; trying again later'),
  });
  return { instagramImports, instagramWorker };
}

export async function registerInstagramImportRoutes(
  app: FastifyInstance,
  deps: Pick<InstagramImportFeature, 'instagramImports'> & { guards: Guards; config: Config },
) {
  await app.register(instagramImportRoutes, {
    prefix: '/api/imports/instagram',
    imports: deps.instagramImports,
    guards: deps.guards,
    dir: deps.config.instagramImport.dir,
    maxBytes: deps.config.instagramImport.maxBytes,
  });
}
