/** Suspensions: a suspended account's sessions end at once and its content is hidden until it is unsuspended. */
import type { AdminUserInfo } from '../../lib/types';
import type { SessionsRepository } from '../auth/repository';
import type { Transactional } from '../db/repository';
import { ConflictError, ForbiddenError } from '../domain/errors';
import { nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import type { UserRow, UsersRepository } from '../users/repository';
import { logEntry } from './adminLog';
import { readNote } from './input';
import type { ModerationRepository } from './repository';
import { adminUserInfo } from './serializers';
import { userNotFound } from './targets';

type SuspensionData = Transactional<{
  moderation: ModerationRepository;
  users: UsersRepository;
  sessions: SessionsRepository;
}>;

/** Suspends inside `trx`; true when it was not suspended yet. Sessions end with the transaction. */
export async function suspendIn(
  trx: Parameters<Parameters<SuspensionData['transaction']>[0]>[0],
  admin: AuthUser,
  user: UserRow,
  now: string,
): Promise<boolean> {
  if (user.id === admin.id) throw new ForbiddenError('You cannot suspend yourself', 'CannotSuspendSelf');
  if (user.role === 'admin') throw new ForbiddenError('An admin cannot be suspended', 'CannotSuspendAdmin');
  if (!(await trx.moderation.setSuspended(user.id, now))) return false;
  await trx.sessions.revokeUserSessions(user.id, now);
  return true;
}

export function suspensions({ data, publish }: { data: SuspensionData; publish: PublishEvent }) {
  async function lookupUser(username: string): Promise<AdminUserInfo> {
    const user = await data.users.findUserByUsername(username);
    if (!user) throw userNotFound();
    return adminUserInfo(user);
  }

  return {
    /** Suspends the account: its sessions end at once on every instance, sign-in is refused. */
    async suspend(admin: AuthUser, username: string, rawNote: unknown): Promise<AdminUserInfo> {
      const note = readNote(rawNote);
      const user = await data.users.findUserByUsername(username);
      if (!user) throw userNotFound();
      const now = nowIso();
      await data.transaction(async (trx) => {
        if (!(await suspendIn(trx, admin, user, now)))
          throw new ConflictError('This account is already suspended', 'AlreadySuspended');
        const subject = { type: 'user' as const, id: user.id, authorId: user.id, label: user.username };
        await trx.moderation.insertLog(logEntry(admin, 'suspendUser', subject, note, now));
      });
      publish({ type: 'UserSuspended', userId: user.id });
      return lookupUser(user.username);
    },

    async unsuspend(admin: AuthUser, username: string, rawNote: unknown): Promise<AdminUserInfo> {
      const note = readNote(rawNote);
      const user = await data.users.findUserByUsername(username);
      if (!user) throw userNotFound();
      await data.transaction(async (trx) => {
        if (!(await trx.moderation.setSuspended(user.id, null)))
          throw new ConflictError('This account is not suspended', 'NotSuspended');
        const subject = { type: 'user' as const, id: user.id, authorId: user.id, label: user.username };
        await trx.moderation.insertLog(logEntry(admin, 'unsuspendUser', subject, note, nowIso()));
      });
      publish({ type: 'UserUnsuspended', userId: user.id });
      return lookupUser(user.username);
    },

    lookup: lookupUser,
  };
}
