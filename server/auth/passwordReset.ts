/**
 * "Forgot password?": a single-use link mailed to the account's address, valid for an hour,
 * that sets a new password and signs the account out everywhere. Nothing here tells whether an
 * address has an account.
 */
import { emailError, passwordError } from '../../lib/validation';
import type { Transactional } from '../db/repository';
import { InvalidError } from '../domain/errors';
import { nowIso } from '../domain/ids';
import type { PublishEvent } from '../events/domainEvents';
import type { Mailer } from '../mail/mailer';
import { type Site, mails } from '../mail/messages';
import type { Outbox } from '../mail/outbox';
import type { AccountQueries } from './accounts';
import {
  EMAIL_TOKEN_TTL_MS,
  type EmailTokensRepository,
  hashEmailToken,
  invalidLink,
  newEmailToken,
} from './emailTokens';
import { hashPassword } from './passwords';
import type { SessionsRepository } from './repository';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export interface PasswordResetDeps {
  data: Transactional<{ users: AccountQueries; sessions: SessionsRepository; emailTokens: EmailTokensRepository }>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  outbox: Outbox;
  mailer: Mailer;
  site: Site;
}

export function passwordResetService({ data, publish, outbox, mailer, site }: PasswordResetDeps) {
  return {
    /**
     * Answers at once, the same way whether or not the address has an account: the lookup, the
     * link and the mail happen after the answer (the outbox), so neither the time nor the answer tell.
     */
    forgot(input: { email?: unknown }): void {
      const email = str(input.email).trim().toLowerCase();
      const error = emailError(email);
      if (error) throw new InvalidError(error);
      const token = newEmailToken();
      const tokenHash = hashEmailToken(token);
      outbox.enqueue(async () => {
        const user = await data.users.findUserByEmail(email);
        if (!user) return;
        const now = new Date();
        await data.emailTokens.insertToken({
          token_hash: tokenHash,
          user_id: user.id,
          purpose: 'password_reset',
          email,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS.password_reset).toISOString(),
          used_at: null,
        });
        await mailer.send(mails.passwordReset(site, email, `${site.url}/resetPassword?token=${token}`, user.language));
      });
    },

    /** Sets the password from a link, once; every session of the account ends. */
    async reset(input: { token?: unknown; password?: unknown }): Promise<void> {
      const token = str(input.token);
      if (!token) throw invalidLink();
      const password = str(input.password);
      const error = passwordError(password);
      if (error) throw new InvalidError(error);
      const passwordHash = await hashPassword(password);
      const now = nowIso();
      const user = await data.transaction(async (trx) => {
        const found = await trx.emailTokens.claimToken(hashEmailToken(token), ['password_reset'], now);
        if (!found) return null;
        const row = await trx.users.findUserById(found.user_id);
        // A link sent to an address the account has since left no longer works.
        if (!row || row.email !== found.email) return null;
        await trx.users.updateUser(row.id, {
          password_hash: passwordHash,
          // The link reached this address, which proves it is the user's.
          email_verified_at: row.email_verified_at ?? now,
          updated_at: now,
        });
        await trx.sessions.revokeUserSessions(row.id, now);
        await trx.emailTokens.spendTokens(row.id, ['password_reset'], now);
        return row;
      });
      if (!user) throw invalidLink();
      publish({ type: 'SessionsRevoked', userId: user.id });
      outbox.enqueue(() => mailer.send(mails.passwordChanged(site, user.email, user.language)));
    },
  };
}

export type PasswordResetService = ReturnType<typeof passwordResetService>;
