/**
 * The current password asked again before a sensitive change (the account's email or password,
 * two-factor off, deletion). A wrong one counts toward the account's sign-in lock like a wrong
 * sign-in (issue 36): otherwise a stolen session could guess the password as fast as it could post.
 */
import { TEXTS } from '../../lib/texts';
import { InvalidError } from '../domain/errors';
import { type Lockout, guardedAttempt, tooManyWrongPasswords } from './lockout';
import { verifyPassword } from './passwords';

/** Throws 400 InvalidPassword when `password` is not the account's, 429 while the account is locked. */
export type CurrentPasswordCheck = (
  account: { email: string; password_hash: string },
  password: unknown,
) => Promise<void>;

/** `lockout`: the sign-in's own, so both kinds of guesses add up. */
export function currentPasswordCheck(lockout: Lockout): CurrentPasswordCheck {
  return async (account, password) => {
    if (typeof password !== 'string' || password === '')
      throw new InvalidError(TEXTS.invalidPassword, 'InvalidPassword');
    const key = accountLockKey(account.email);
    const right = await guardedAttempt(lockout, key, tooManyWrongPasswords, () =>
      verifyPassword(account.password_hash, password),
    );
    if (!right) throw new InvalidError(TEXTS.invalidPassword, 'InvalidPassword');
  };
}

/** The sign-in lock's key for an account's guesses (a known device has its own, `device:<id>`). */
export const accountLockKey = (email: string) => `account:${email.trim().toLowerCase()}`;
