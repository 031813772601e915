/**
 * Email verification: a sign-up mails a link to the address; an email change mails one to the new
 * address and changes `email` only once it is opened (the old address is told). Until then the
 * user uses the app with `emailVerified: false` (or with `pendingEmail` set).
 */
import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { isUniqueViolation } from '../db/errors';
import type { Transactional } from '../db/repository';
import type { EmailTokenPurpose } from '../db/schema';
import { ConflictError, InvalidError } from '../domain/errors';
import { nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
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

/** The repositories a verification link is made with, on the database or inside a caller's transaction. */
export interface EmailLinkData {
  users: AccountQueries;
  emailTokens: EmailTokensRepository;
}

/** Sends a staged mail: call it once the transaction that made its link has committed. */
export type SendAfterCommit = () => void;

const emailTaken = () => new ConflictError('Email is already registered', 'EmailTaken');

export interface EmailVerificationDeps {
  data: Transactional<EmailLinkData>;
  outbox: Outbox;
  mailer: Mailer;
  site: Site;
}

export function emailVerificationService({ data, outbox, mailer, site }: EmailVerificationDeps) {
  async function issue(trx: EmailLinkData, userId: string, purpose: EmailTokenPurpose, email: string) {
    const token = newEmailToken();
    const now = new Date();
    // A newer link replaces the older ones of its kind.
    await trx.emailTokens.spendTokens(userId, [purpose], now.toISOString());
    await trx.emailTokens.insertToken({
      token_hash: hashEmailToken(token),
      user_id: userId,
      purpose,
      email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[purpose]).toISOString(),
      used_at: null,
    });
    return `${site.url}/verifyEmail?token=${token}`;
  }

  /** `language`: the account's (`users.language`), which the mail is written in. */
  async function stageVerification(
    trx: EmailLinkData,
    userId: string,
    email: string,
    language: string | null,
  ): Promise<SendAfterCommit> {
    const link = await issue(trx, userId, 'verify_email', email);
    return () => outbox.enqueue(() => mailer.send(mails.verifyEmail(site, email, link, language)));
  }

  async function stageEmailChange(trx: EmailLinkData, userId: string, newEmail: string): Promise<SendAfterCommit> {
    const { language } = await trx.users.updateUser(userId, { pending_email: newEmail, updated_at: nowIso() });
    const link = await issue(trx, userId, 'change_email', newEmail);
    return () => outbox.enqueue(() => mailer.send(mails.changeEmail(site, newEmail, link, language)));
  }

  return {
    /** Inside a sign-up's transaction: the link for the new account's address. */
    stageVerification,
    /** Inside an account change's transaction: `newEmail` waits for its link; `email` stays. */
    stageEmailChange,

    /** Mails the link again: the pending new address's, else the unverified address's. */
    async resend(viewer: AuthUser): Promise<void> {
      const send = await data.transaction(async (trx) => {
        const row = (await trx.users.findUserById(viewer.id))!;
        if (row.pending_email) return stageEmailChange(trx, row.id, row.pending_email);
        if (row.email_verified_at) throw new InvalidError(EMAIL_TEXTS.alreadyVerified, 'AlreadyVerified');
        return stageVerification(trx, row.id, row.email, row.language);
      });
      send();
    },

    /** Opens a link: verifies the address, or makes the pending address the account's. */
    async verify(input: { token?: unknown }): Promise<{ email: string }> {
      const token = typeof input.token === 'string' ? input.token : '';
      if (!token) throw invalidLink();
      const now = nowIso();
      let opened: { email: string; previousEmail: string | null; language: string | null };
      try {
        opened = await data.transaction(async (trx) => {
          const found = await trx.emailTokens.claimToken(hashEmailToken(token), ['verify_email', 'change_email'], now);
          if (!found) throw invalidLink();
          const row = await trx.users.findUserById(found.user_id);
          if (found.purpose === 'verify_email') {
            // A link to an address the account has since left does nothing.
            if (!row || row.email !== found.email) throw invalidLink();
            if (!row.email_verified_at) await trx.users.updateUser(row.id, { email_verified_at: now, updated_at: now });
            return { email: row.email, previousEmail: null, language: row.language };
          }
          if (!row || row.pending_email !== found.email) throw invalidLink();
          const owner = await trx.users.findUserByEmail(found.email);
          if (owner && owner.id !== row.id) throw emailTaken();
          await trx.users.updateUser(row.id, {
            email: found.email,
            pending_email: null,
            email_verified_at: now,
            updated_at: now,
          });
          await trx.emailTokens.spendTokens(row.id, ['verify_email', 'change_email', 'password_reset'], now);
          return { email: found.email, previousEmail: row.email, language: row.language };
        });
      } catch (err) {
        // Another account took the address between the check and the update.
        if (isUniqueViolation(err)) throw emailTaken();
        throw err;
      }
      const { email, previousEmail, language } = opened;
      if (previousEmail) outbox.enqueue(() => mailer.send(mails.emailChanged(site, previousEmail, email, language)));
      return { email };
    },
  };
}

export type EmailVerificationService = ReturnType<typeof emailVerificationService>;
