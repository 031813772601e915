/**
 * What sign-up, sign-in, resets, verification and two-factor read and write of the users table,
 * as a shape of their own: `users/repository.ts` provides it (the composition root hands it over),
 * and auth does not import the users feature, which builds on auth (guards, passwords).
 */
import type { NewUser, UserRow, UserUpdate } from '../db/schema';
import type { AuthUser } from '../domain/types';
import type { User } from '../../lib/types';

export interface AccountQueries {
  findUserById(id: string): Promise<UserRow | undefined>;
  /** Local accounts only. */
  findUserByEmail(email: string): Promise<UserRow | undefined>;
  findUserByUsername(username: string): Promise<UserRow | undefined>;
  /** Inside a sign-up's transaction: whether the account about to be inserted is the first. */
  isFirstAccount(): Promise<boolean>;
  isUsernameRetired(username: string, now: string): Promise<boolean>;
  insertUser(user: NewUser): Promise<unknown>;
  updateUser(id: string, changes: UserUpdate): Promise<UserRow>;
  /** Swaps a password hash for a new one of the same password, unless the password changed meanwhile. */
  replacePasswordHash(id: string, oldHash: string, newHash: string): Promise<unknown>;
}

/** The signed-in person's own account, as the session routes answer it (`users/service.ts`). */
export interface OwnAccount {
  account(viewer: AuthUser): Promise<User>;
}
