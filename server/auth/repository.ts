/** Queries on sessions (refresh-token families) and refresh tokens. */
import type { Insertable } from 'kysely';
import { bindQueries } from '../db/repository';
import type { Queryable, SessionsTable } from '../db/schema';

const insertSession = (db: Queryable, session: Insertable<SessionsTable>) =>
  db.insertInto('sessions').values(session).execute();

const insertRefreshToken = (db: Queryable, token: { token_hash: string; session_id: string; created_at: string }) =>
  db
    .insertInto('refresh_tokens')
    .values({ ...token, used_at: null })
    .execute();

const findRefreshToken = (db: Queryable, tokenHash: string) =>
  db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'refresh_tokens.token_hash',
      'refresh_tokens.used_at',
      'sessions.id as session_id',
      'sessions.user_id',
      'sessions.expires_at',
      'sessions.revoked_at',
      'users.suspended_at',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** Marks the token used only if nobody did first; true when this call won. */
async function claimRefreshToken(db: Queryable, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const revokeSession = (db: Queryable, sessionId: string, now: string) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();

/** Every live session of the user except `keepSessionId` (a password change); without it, all (a reset, a suspension). */
const revokeUserSessions = (db: Queryable, userId: string, now: string, keepSessionId?: string) => {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  return query.where('revoked_at', 'is', null).execute();
};

const findSessionUser = (db: Queryable, sessionId: string, userId: string, now: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.username', 'users.role', 'sessions.id as session_id'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    // Suspension revokes the sessions too; this also covers a session that raced it.
    .where('users.suspended_at', 'is', null)
    .executeTakeFirst();

/** The user's live sessions, most recently used first. */
const listLiveSessions = (db: Queryable, userId: string, now: string) =>
  db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** Revokes one live session of the user; false when it is not theirs, or already gone. */
async function revokeOwnSession(db: Queryable, userId: string, sessionId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Refresh marks the session used: once per access token's life, not on every request. */
const touchSession = (db: Queryable, sessionId: string, now: string) =>
  db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', sessionId).execute();

/** The queries on sessions and refresh tokens, bound to a database or a transaction. */
export const sessionsRepository = bindQueries({
  insertSession,
  insertRefreshToken,
  findRefreshToken,
  claimRefreshToken,
  revokeSession,
  revokeUserSessions,
  findSessionUser,
  listLiveSessions,
  revokeOwnSession,
  touchSession,
});

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
