/**
 * Deleting an account: the password (and a two-factor code when that is on) confirms it; one
 * transaction takes the user's reactions, comments and follows off other rows' counters and deletes
 * the user, whose rows go with it (ON DELETE CASCADE); then `AccountDeleted` is published (the
 * caches and the streams of those whose unread notifications went hear of it) and the files of
 * their uploads, and the archives their imports kept, are removed. The username is held for 30 days. For federation (issue 32) the actor
 * is buried (`federation_tombstones`: its URI answers 410) and, when people elsewhere follow it,
 * `Delete(Person)` goes to them, with their inboxes and the keys read before the rows vanish.
 */
import { usernameKey } from '../../lib/validation';
import type { CurrentPasswordCheck } from '../auth/currentPassword';
import type { TwoFactorService } from '../auth/twoFactor';
import type { Transactional } from '../db/repository';
import { NotFoundError } from '../domain/errors';
import type { AuthUser } from '../domain/types';
import { variantKeys } from '../media/service';
import type { MediaStorage } from '../media/storage';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import type { TombstonesRepository } from './tombstones';
import type { AccountRepository } from './accountRepository';
import type { UsersRepository } from './repository';

export const RETIRED_USERNAME_MS = 30 * 24 * 3600 * 1000;

type DeletionRepositories = { users: UsersRepository; account: AccountRepository; tombstones: TombstonesRepository };

export interface DeletionDeps {
  data: Transactional<DeletionRepositories>;
  storage: MediaStorage;
  twoFactor: Pick<TwoFactorService, 'confirm'>;
  /** Deleting asks the password; wrong ones count like a sign-in's. */
  checkPassword: CurrentPasswordCheck;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  /** Files that could not be removed once the rows were gone (the deletion itself stands). */
  onFilesLeft?: (error: unknown) => void;
  /** Removes the archives the person's imports kept (`instagramImport/archiveFiles.ts`). */
  removeArchives?: (names: string[]) => Promise<void>;
  /** Federation on: what `Delete(Person)` needs is read first, and it is queued after the commit. */
  farewell?: {
    /** What the goodbye needs, read before the rows go: the sending of it, or null when nobody elsewhere follows. */
    read(userId: string): Promise<(() => Promise<void>) | null>;
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
  removeArchives,
  farewell,
}: DeletionDeps) {
  return {
    async remove(user: AuthUser, input: { password?: unknown; code?: unknown }): Promise<void> {
      const row = await data.users.findUserById(user.id);
      if (!row) throw new NotFoundError('User not found', 'UserNotFound');
      await checkPassword(row, input.password);
      await twoFactor.confirm(user.id, input.code, 'confirm');
      const goodbye = await farewell?.read(user.id).catch((error: unknown) => (farewell.onError(error), null));

      const now = Date.now();
      const gone = await removeRows(user.id, async (trx) => {
        const until = new Date(now + RETIRED_USERNAME_MS).toISOString();
        await trx.account.retireUsername(usernameKey(row.username), until, new Date(now).toISOString());
        await trx.tombstones.bury(user.id, usernameKey(row.username), new Date(now).toISOString());
      });
      announce(user.id, gone);
      if (goodbye) await goodbye().catch((error: unknown) => farewell?.onError(error));
      await removeFiles(gone);
    },

    /**
     * A person from elsewhere whose server deleted them (`Delete(Person)`, their actor gone): the
     * same rows, counters, event and files as a local deletion, without a password (their server
     * vouched), a held name or a tombstone (their actor is not ours). False when not kept here.
     */
    async removeElsewhere(userId: string): Promise<boolean> {
      const row = await data.users.findUserById(userId);
      if (!row?.domain) return false;
      let gone: Gone;
      try {
        gone = await removeRows(userId, async () => {});
      } catch (error) {
        if (error instanceof NotFoundError) return false;
        throw error;
      }
      announce(userId, gone);
      await removeFiles(gone);
      return true;
    },
  };

  /** One transaction: the user's marks on others' counters taken off, then their row (and the cascade). */
  async function removeRows(userId: string, andThen: (trx: DeletionRepositories) => Promise<void>): Promise<Gone> {
    return data.transaction(async (trx) => {
      await trx.account.lockUser(userId);
      const posts = await trx.account.postIdsOf(userId);
      const unreadFell = await trx.account.unreadRecipientsOf(userId);
      const media = await trx.account.mediaVariantsOf(userId);
      const archives = await trx.account.importArchivesOf(userId);
      await trx.account.uncountUser(userId);
      // Two deletions racing: the one that removed the row goes on, the other answers 404.
      if (!(await trx.account.deleteUser(userId))) throw new NotFoundError('User not found', 'UserNotFound');
      await andThen(trx);
      return { posts, media, archives, unreadFell };
    });
  }

  function announce(userId: string, gone: Gone) {
    publish({ type: 'AccountDeleted', userId, postIds: gone.posts, notifications: unreadFellFor(gone.unreadFell) });
  }

  // Rows first, then files: a crash in between leaves unlisted files, never a row without its files.
  async function removeFiles({ media, archives }: Gone) {
    await storage.remove(media.flatMap(variantKeys)).catch((error: unknown) => onFilesLeft?.(error));
    if (archives.length > 0) await removeArchives?.(archives).catch((error: unknown) => onFilesLeft?.(error));
  }
}

interface Gone {
  posts: string[];
  media: string[];
  archives: string[];
  unreadFell: string[];
}

export type AccountDeletion = ReturnType<typeof accountDeletion>;
