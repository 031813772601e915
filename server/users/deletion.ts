/**
 * Deleting an account: the password (and a two-factor code when that is on) confirms it; one
 * transaction takes the user's reactions, comments and follows off other rows' counters and deletes
 * the user, whose rows go with it (ON DELETE CASCADE); then `AccountDeleted` is published (the
 * caches and the streams of those whose unread notifications went hear of it) and the files of
 * their uploads are removed. The username is held for 30 days. For federation (issue 32) the actor
 * is buried (`federation_tombstones`: its URI answers 410) and, when people elsewhere follow it,
 * `Delete(Person)` goes to them, with their inboxes and the keys read before the rows vanish.
 */
import { usernameKey } from '../../lib/validation';
import type { CurrentPasswordCheck } from '../auth/currentPassword';
import type { TwoFactorService } from '../auth/twoFactor';
import type { Transactional } from '../db/repository';
import { NotFoundError } from '../domain/errors';
import type { AuthUser } from '../domain/types';
import type { StoredVariant } from '../media/service';
import type { MediaStorage } from '../media/storage';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import type { Farewell, TombstonesRepository } from '../federation/tombstones';
import type { AccountRepository } from './accountRepository';
import type { UsersRepository } from './repository';

export const RETIRED_USERNAME_MS = 30 * 24 * 3600 * 1000;

export interface DeletionDeps {
  data: Transactional<{ users: UsersRepository; account: AccountRepository; tombstones: TombstonesRepository }>;
  storage: MediaStorage;
  twoFactor: Pick<TwoFactorService, 'confirm'>;
  /** Deleting asks the password; wrong ones count like a sign-in's. */
  checkPassword: CurrentPasswordCheck;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  /** Files that could not be removed once the rows were gone (the deletion itself stands). */
  onFilesLeft?: (error: unknown) => void;
  /** Federation on: what `Delete(Person)` needs is read first, and it is queued after the commit. */
  farewell?: {
    read(userId: string): Promise<Farewell | null>;
    send(farewell: Farewell): Promise<void>;
    onError(error: unknown): void;
  };
}

export function accountDeletion({
  data,
  storage,
  twoFactor,
  checkPassword,
  publish,
  onFilesLeft,
  farewell,
}: DeletionDeps) {
  return {
    async remove(user: AuthUser, input: { password?: unknown; code?: unknown }): Promise<void> {
      const row = await data.users.findUserById(user.id);
      if (!row) throw new NotFoundError('User not found', 'UserNotFound');
      await checkPassword(row, input.password);
      await twoFactor.confirm(user.id, input.code, 'confirm');
      const goodbye = await farewell?.read(user.id).catch((error: unknown) => (farewell.onError(error), null));

      const gone = await data.transaction(async (trx) => {
        await trx.account.lockUser(user.id);
        const posts = await trx.account.postIdsOf(user.id);
        const unreadFell = await trx.account.unreadRecipientsOf(user.id);
        const media = await trx.account.mediaVariantsOf(user.id);
        await trx.account.uncountUser(user.id);
        // Two deletions racing: the one that removed the row goes on, the other answers 404.
        if (!(await trx.account.deleteUser(user.id))) throw new NotFoundError('User not found', 'UserNotFound');
        const now = Date.now();
        const until = new Date(now + RETIRED_USERNAME_MS).toISOString();
        await trx.account.retireUsername(usernameKey(row.username), until, new Date(now).toISOString());
        await trx.tombstones.bury(user.id, usernameKey(row.username), new Date(now).toISOString());
        return { posts, media, unreadFell };
      });

      publish({
        type: 'AccountDeleted',
        userId: user.id,
        postIds: gone.posts,
        notifications: unreadFellFor(gone.unreadFell),
      });
      if (goodbye) await farewell?.send(goodbye).catch((error: unknown) => farewell.onError(error));
      // Rows first, then files: a crash in between leaves unlisted files, never a row without its files.
      await storage
        .remove(gone.media.flatMap((variants) => (JSON.parse(variants) as StoredVariant[]).map((v) => v.key)))
        .catch((error: unknown) => onFilesLeft?.(error));
    },
  };
}

export type AccountDeletion = ReturnType<typeof accountDeletion>;
