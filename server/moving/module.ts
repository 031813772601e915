/**
 * Moving an account wired (issue 76): the service, given federation's part when it is on
 * (`context.ts` builds it, `app.ts` registers its routes).
 */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { movingRepository } from './repository';
import { movingRoutes } from './routes';
import { type AccountMovesDeps, accountMoves } from './service';

export type MovingFeature = ReturnType<typeof movingFeature>;

export function movingFeature({
  config,
  db,
  federation,
  ...deps
}: Pick<AccountMovesDeps, 'users' | 'people' | 'publish' | 'onError'> & {
  config: Config;
  db: Db;
  /** Federation's part (`federation/federation.ts` provides it), by shape: federation builds on moving. */
  federation: AccountMovesDeps['remote'];
}) {
  const moves = accountMoves({
    ...deps,
    repo: movingRepository(db.kysely),
    origin: config.federation?.origin ?? config.siteUrl,
    remote: federation,
  });
  return { moves };
}

export async function registerMovingRoutes(app: FastifyInstance, deps: MovingFeature & { guards: Guards }) {
  await app.register(movingRoutes, { prefix: '/api/users', moves: deps.moves, guards: deps.guards });
}
