/**
 * The single-use links mailed to users (password reset, verification, email change): random
 * tokens, stored only as their SHA-256 hash, and the queries on them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { bindQueries } from '../db/repository';
import type { EmailTokenPurpose, EmailTokensTable, Queryable } from '../db/schema';
import { InvalidError } from '../domain/errors';

/** How long each kind of link works. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  verify_email: 48 * 60 * 60 * 1000,
  change_email: 48 * 60 * 60 * 1000,
};

/** What every unknown, used or expired link answers (400). */
export const invalidLink = () => new InvalidError(EMAIL_TEXTS.invalidLink, 'InvalidLink');

export const newEmailToken = (): string => randomBytes(32).toString('base64url');
export const hashEmailToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const insertToken = (db: Queryable, token: Insertable<EmailTokensTable>) =>
  db.insertInto('email_tokens').values(token).execute();

/** Marks an unused, unexpired token of one of `purposes` used and returns it; undefined when none (or someone did first). */
const claimToken = (db: Queryable, tokenHash: string, purposes: EmailTokenPurpose[], now: string) =>
  db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();

/** Every unused link of the user for these purposes stops working (a newer one replaced them, or they did their job). */
const spendTokens = (db: Queryable, userId: string, purposes: EmailTokenPurpose[], now: string) =>
  db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .execute();

export const emailTokensRepository = bindQueries({ insertToken, claimToken, spendTokens });

export type EmailTokensRepository = ReturnType<typeof emailTokensRepository>;
