/** Queries on two-factor secrets and recovery codes. No rules. */
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';

const findTwoFactor = (db: Queryable, userId: string) =>
  db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** A new secret waiting for its first code; replaces an earlier unconfirmed one. */
async function savePendingSecret(db: Queryable, userId: string, secret: string, now: string): Promise<void> {
  await db.deleteFrom('two_factor').where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
  await db
    .insertInto('two_factor')
    .values({ user_id: userId, secret, enabled_at: null, last_step: null, created_at: now })
    .execute();
}

/** Turns it on, unless it is on already; true when this call did. */
async function markEnabled(db: Queryable, userId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set({ enabled_at: now })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records that a code of `step` was accepted, only if no code of that step or a later one was:
 * true when this call won, so a code cannot be used twice, even by two requests at once.
 */
async function claimStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function removeTwoFactor(db: Queryable, userId: string): Promise<boolean> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  const result = await db.deleteFrom('two_factor').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

async function replaceRecoveryCodes(db: Queryable, userId: string, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** Spends one unused recovery code; true when this call did. */
async function useRecoveryCode(db: Queryable, userId: string, hash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const twoFactorRepository = bindQueries({
  findTwoFactor,
  savePendingSecret,
  markEnabled,
  claimStep,
  removeTwoFactor,
  replaceRecoveryCodes,
  useRecoveryCode,
  countUnusedRecoveryCodes,
});

export type TwoFactorRepository = ReturnType<typeof twoFactorRepository>;
