/** Queries on OAuth apps, authorization codes and access tokens (all secrets by hash). */
import type { Insertable } from 'kysely';
import { bindQueries } from '../db/repository';
import type { OAuthAppsTable, OAuthCodesTable, OAuthTokensTable, Queryable } from '../db/schema';

const insertApp = (db: Queryable, app: Insertable<OAuthAppsTable>) => db.insertInto('oauth_apps').values(app).execute();

const findAppByClientId = (db: Queryable, clientId: string) =>
  db.selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();

const findAppById = (db: Queryable, id: string) =>
  db.selectFrom('oauth_apps').selectAll().where('id', '=', id).executeTakeFirst();

const insertCode = (db: Queryable, code: Insertable<OAuthCodesTable>) =>
  db.insertInto('oauth_codes').values(code).execute();

/** Marks the code used and returns it, only when it was unused and unexpired: a code buys one token. */
const claimCode = async (db: Queryable, codeHash: string, now: string) => {
  const claimed = await db
    .updateTable('oauth_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
};

const insertToken = (db: Queryable, token: Insertable<OAuthTokensTable>) =>
  db.insertInto('oauth_tokens').values(token).execute();

/** A live token with its app; a person's token is checked against its session separately. */
const findToken = (db: Queryable, tokenHash: string) =>
  db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_apps', 'oauth_apps.id', 'oauth_tokens.app_id')
    .select([
      'oauth_tokens.id',
      'oauth_tokens.app_id',
      'oauth_tokens.user_id',
      'oauth_tokens.session_id',
      'oauth_tokens.scopes',
      'oauth_apps.name as app_name',
      'oauth_apps.website as app_website',
    ])
    .where('oauth_tokens.token_hash', '=', tokenHash)
    .where('oauth_tokens.revoked_at', 'is', null)
    .executeTakeFirst();

/** Revokes a live token; returns its session (to revoke with it) when it was live. */
const revokeToken = async (
  db: Queryable,
  where: { tokenHash?: string; id?: string; appId?: string; userId?: string },
  now: string,
) => {
  let query = db.selectFrom('oauth_tokens').select(['id', 'session_id', 'user_id']).where('revoked_at', 'is', null);
  if (where.tokenHash) query = query.where('token_hash', '=', where.tokenHash);
  if (where.id) query = query.where('id', '=', where.id);
  if (where.appId) query = query.where('app_id', '=', where.appId);
  if (where.userId) query = query.where('user_id', '=', where.userId);
  const rows = await query.execute();
  if (rows.length > 0)
    await db
      .updateTable('oauth_tokens')
      .set({ revoked_at: now })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  return rows;
};

/** The apps a user has live tokens for, each with when it was first authorised and its scopes. */
const listUserApps = (db: Queryable, userId: string, now: string) =>
  db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_apps', 'oauth_apps.id', 'oauth_tokens.app_id')
    .innerJoin('sessions', 'sessions.id', 'oauth_tokens.session_id')
    .select([
      'oauth_apps.id',
      'oauth_apps.name',
      'oauth_apps.website',
      'oauth_tokens.scopes',
      'oauth_tokens.created_at',
    ])
    .where('oauth_tokens.user_id', '=', userId)
    .where('oauth_tokens.revoked_at', 'is', null)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .orderBy('oauth_tokens.id', 'desc')
    .execute();

export const oauthRepository = bindQueries({
  insertApp,
  findAppByClientId,
  findAppById,
  insertCode,
  claimCode,
  insertToken,
  findToken,
  revokeToken,
  listUserApps,
});

export type OAuthRepository = ReturnType<typeof oauthRepository>;
