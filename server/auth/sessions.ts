/** A user's own sessions: the list Settings shows, and signing one device (or all the others) out. */
import type { SessionInfo } from '../../lib/types';
import { InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { SessionsRepository } from './repository';
import type { AuthService } from './service';
import type { PublishEvent } from '../events/domainEvents';

export function sessionsService({
  sessions,
  publish,
  revokeOtherSessions,
}: {
  sessions: SessionsRepository;
  publish: PublishEvent;
  /** The revocation a password change makes (`AuthService.revokeOtherSessions`). */
  revokeOtherSessions: AuthService['revokeOtherSessions'];
}) {
  return {
    async list(user: AuthUser): Promise<SessionInfo[]> {
      const rows = await sessions.listLiveSessions(user.id, nowIso());
      return rows.map((row) => ({
        id: row.id,
        userAgent: row.user_agent,
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at ?? row.created_at,
        current: row.id === user.sessionId,
      }));
    },

    /** Revokes one of the user's sessions at once (every instance's cache too); 404 for anyone else's. */
    async revoke(user: AuthUser, sessionId: string): Promise<void> {
      if (!isUuid(sessionId)) throw new InvalidError('Session id must be a UUID', 'ValidationError');
      if (!(await sessions.revokeOwnSession(user.id, sessionId, nowIso())))
        throw new NotFoundError('Session not found', 'SessionNotFound');
      publish({ type: 'SessionRevoked', userId: user.id, sessionId });
    },

    /** "Sign out everywhere else": every session of the user but this one. */
    async revokeOthers(user: AuthUser): Promise<void> {
      await revokeOtherSessions(user.id, user.sessionId);
    },
  };
}

export type SessionsService = ReturnType<typeof sessionsService>;
