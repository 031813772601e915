/**
 * Two-factor sign-in with TOTP (RFC 6238: 6 digits, 30 seconds, SHA-1, what every authenticator
 * app reads from the QR code) and ten single-use recovery codes.
 *
 * At rest the secret is sealed with AES-256-GCM under a key derived from JWT_SECRET, and recovery
 * codes are HMACs under another: a database dump alone gives neither away.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { TEXTS } from '../../lib/texts';
import type { Transactional } from '../db/repository';
import { ConflictError, InvalidError, UnauthorizedError } from '../domain/errors';
import { nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { AccountQueries } from './accounts';
import { type Lockout, guardedAttempt } from './lockout';
import type { CurrentPasswordCheck } from './currentPassword';
import type { TwoFactorRepository } from './twoFactorRepository';

const PERIOD_S = 30;
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** Where a code is checked decides how a wrong one answers: 401 at sign-in, 400 in settings. */
type CodeCheck = 'signIn' | 'confirm';

export interface TwoFactorDeps {
  data: Transactional<{ users: AccountQueries; twoFactor: TwoFactorRepository }>;
  /** JWT_SECRET: the keys that seal secrets and hash recovery codes are derived from it. */
  serverSecret: string;
  /** Wrong codes per account. */
  lockout: Lockout;
  /** Turning it off asks the password, counted like a sign-in's. */
  checkPassword: CurrentPasswordCheck;
  /** The name authenticator apps show beside the account (INSTANCE_NAME). */
  issuer: string;
  now?: () => number;
}

function sealing(serverSecret: string) {
  const key = createHmac('sha256', serverSecret).update('totp-secret-seal').digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed: string): string {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1') throw new Error('Unknown sealed secret version');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A recovery code as typed (any case, spaces or dash) in its stored form, or null when it cannot be one. */
const normalizeRecoveryCode = (code: string): string | null => {
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return new RegExp(`^[${RECOVERY_ALPHABET}]{10}$`).test(plain) ? plain : null;
};

export function twoFactorService({
  data,
  serverSecret,
  lockout,
  checkPassword,
  issuer,
  now = Date.now,
}: TwoFactorDeps) {
  const { users, twoFactor } = data;
  const secrets = sealing(serverSecret);
  const recoveryKey = createHmac('sha256', serverSecret).update('totp-recovery-codes').digest();
  const hashRecoveryCode = (plain: string) => createHmac('sha256', recoveryKey).update(plain).digest('hex');
  const totpOf = (sealed: string, label = '') =>
    new TOTP({
      issuer,
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD_S,
      secret: Secret.fromBase32(secrets.open(sealed)),
    });

  /** True when `code` is a fresh TOTP code, or (when allowed) an unused recovery code; spends it. */
  async function spend(userId: string, sealed: string, code: string, allowRecovery: boolean): Promise<boolean> {
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      const at = now();
      // Sealed under another JWT_SECRET: no code can match it (docs/api-decisions.md, Two-factor sign-in).
      let totp: TOTP;
      try {
        totp = totpOf(sealed);
      } catch {
        return false;
      }
      const delta = totp.validate({ token: digits, timestamp: at, window: 1 });
      if (delta === null) return false;
      return twoFactor.claimStep(userId, Math.floor(at / 1000 / PERIOD_S) + delta);
    }
    const recovery = allowRecovery ? normalizeRecoveryCode(code) : null;
    return recovery !== null && twoFactor.useRecoveryCode(userId, hashRecoveryCode(recovery), nowIso());
  }

  /** Checks a code against the account's lock for wrong codes; throws when locked or wrong. */
  async function check(userId: string, sealed: string, code: unknown, use: CodeCheck, allowRecovery = true) {
    if (typeof code !== 'string' || code.trim() === '')
      throw new InvalidError(SECURITY_TEXTS.twoFactorCodeRequired, 'TwoFactorCodeRequired');
    const key = `2fa:${userId}`;
    const tooMany = (seconds: number) => `Too many wrong codes, try again in ${seconds} seconds`;
    if (await guardedAttempt(lockout, key, tooMany, () => spend(userId, sealed, code.trim(), allowRecovery))) return;
    if (use === 'signIn') throw new UnauthorizedError(SECURITY_TEXTS.invalidTwoFactorCode, 'InvalidTwoFactorCode');
    throw new InvalidError(SECURITY_TEXTS.invalidTwoFactorCode, 'InvalidTwoFactorCode');
  }

  async function enabledRow(userId: string) {
    const row = await twoFactor.findTwoFactor(userId);
    return row?.enabled_at ? row : undefined;
  }

  return {
    async isEnabled(userId: string): Promise<boolean> {
      return (await enabledRow(userId)) !== undefined;
    },

    async status(user: AuthUser): Promise<TwoFactorStatus> {
      const enabled = (await enabledRow(user.id)) !== undefined;
      return { enabled, recoveryCodesLeft: enabled ? await twoFactor.countUnusedRecoveryCodes(user.id) : 0 };
    },

    /** A new secret for the authenticator app; two-factor sign-in is on once a code of it is confirmed. */
    async setup(user: AuthUser): Promise<{ otpauthUrl: string; secret: string }> {
      if (await enabledRow(user.id)) throw new ConflictError(SECURITY_TEXTS.twoFactorAlreadyOn, 'TwoFactorAlreadyOn');
      const secret = new Secret({ size: 20 });
      const sealed = secrets.seal(secret.base32);
      await twoFactor.savePendingSecret(user.id, sealed, nowIso());
      return { otpauthUrl: totpOf(sealed, user.username).toString(), secret: secret.base32 };
    },

    /** Confirms the setup with a code from the app; answers the recovery codes, shown this once. */
    async enable(user: AuthUser, code: unknown): Promise<{ recoveryCodes: string[] }> {
      const row = await twoFactor.findTwoFactor(user.id);
      if (row?.enabled_at) throw new ConflictError(SECURITY_TEXTS.twoFactorAlreadyOn, 'TwoFactorAlreadyOn');
      if (!row) throw new InvalidError('Start the two-factor setup first', 'TwoFactorNotSetUp');
      await check(user.id, row.secret, code, 'confirm', false);
      const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      await data.transaction(async (trx) => {
        if (!(await trx.twoFactor.markEnabled(user.id, nowIso())))
          throw new ConflictError(SECURITY_TEXTS.twoFactorAlreadyOn, 'TwoFactorAlreadyOn');
        await trx.twoFactor.replaceRecoveryCodes(
          user.id,
          recoveryCodes.map((c) => hashRecoveryCode(normalizeRecoveryCode(c)!)),
        );
      });
      return { recoveryCodes };
    },

    /** Needs the password and a code (or a recovery code). */
    async disable(user: AuthUser, input: { password?: unknown; code?: unknown }): Promise<void> {
      const row = await enabledRow(user.id);
      if (!row) throw new InvalidError('Two-factor sign-in is not on', 'TwoFactorNotOn');
      const account = await users.findUserById(user.id);
      if (!account) throw new InvalidError(TEXTS.invalidPassword, 'InvalidPassword');
      await checkPassword(account, input.password);
      await check(user.id, row.secret, input.code, 'confirm');
      await twoFactor.removeTwoFactor(user.id);
    },

    /**
     * For an account with two-factor sign-in on: checks (and spends) a TOTP or recovery code.
     * `use` decides the status of a wrong one. Does nothing for an account without it.
     */
    async confirm(userId: string, code: unknown, use: CodeCheck): Promise<void> {
      const row = await enabledRow(userId);
      if (row) await check(userId, row.secret, code, use);
    },
  };
}

export type TwoFactorService = ReturnType<typeof twoFactorService>;
