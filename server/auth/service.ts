/** Sign-up, sign-in, token rotation and sign-out. */
import { isLanguage } from '../../lib/i18n/languages';
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { TEXTS } from '../../lib/texts';
import { emailError, normalizeUsername, passwordError, usernameError, usernameKey } from '../../lib/validation';
import { isUniqueViolation } from '../db/errors';
import type { Transactional } from '../db/repository';
import type { PublishEvent } from '../events/domainEvents';
import { ConflictError, InvalidError, UnauthorizedError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { AccountQueries } from './accounts';
import type { Devices } from './devices';
import type { EmailTokensRepository } from './emailTokens';
import type { EmailVerificationService, SendAfterCommit } from './emailVerification';
import { accountLockKey } from './currentPassword';
import { type Lockout, guardedAttempt, tooManyWrongPasswords } from './lockout';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords';
import type { SessionsRepository } from './repository';
import type { SessionCache } from './sessionCache';
import { type AccessTokens, REFRESH_TOKEN_TTL_MS, hashRefreshToken, newRefreshToken } from './tokens';
import type { TwoFactorService } from './twoFactor';

export interface IssuedTokens {
  access: string;
  refresh: string;
}

export interface SignIn extends IssuedTokens {
  /** The device cookie's value: the one sent when it was valid, else a new one. */
  device: string;
}

/** The password was right, but the account has two-factor sign-in on and no code came with it. */
export interface TwoFactorRequired {
  twoFactorRequired: true;
}

const unauthorized = (message = 'Session expired, please sign in again') =>
  new UnauthorizedError(message, 'Unauthorized');
const suspended = () => new UnauthorizedError(SECURITY_TEXTS.accountSuspended, 'AccountSuspended');

export interface AuthServiceDeps {
  data: Transactional<{ users: AccountQueries; sessions: SessionsRepository; emailTokens: EmailTokensRepository }>;
  tokens: AccessTokens;
  /** Access tokens this process has recently checked (revocations reach it through `publish`). */
  checked: Pick<SessionCache, 'known' | 'check'>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  refreshReuseGraceMs: number;
  /** Wrong guesses per account, or per known device (`devices`). */
  lockout: Lockout;
  devices: Devices;
  /** A sign-up mails a link to verify the address. */
  emailVerification: Pick<EmailVerificationService, 'stageVerification'>;
  /** Accounts with two-factor sign-in need a code after the password. */
  twoFactor: Pick<TwoFactorService, 'isEnabled' | 'confirm'>;
}

export function authService({
  data,
  tokens,
  checked,
  publish,
  refreshReuseGraceMs,
  lockout,
  devices,
  emailVerification,
  twoFactor,
}: AuthServiceDeps) {
  const { users, sessions } = data;

  async function revoke(session: { userId: string; sessionId: string }, now: string): Promise<void> {
    await sessions.revokeSession(session.sessionId, now);
    publish({ type: 'SessionRevoked', ...session });
  }

  async function issueSession(userId: string, userAgent: string | null): Promise<IssuedTokens> {
    const now = nowIso();
    const sessionId = newId();
    const refresh = newRefreshToken();
    await data.transaction(async (trx) => {
      await trx.sessions.insertSession({
        id: sessionId,
        user_id: userId,
        created_at: now,
        revoked_at: null,
        user_agent: userAgent?.slice(0, 300) ?? null,
        last_used_at: now,
        expires_at: new Date(Date.now() + REFRESH_TOKEN_TTL_MS).toISOString(),
      });
      await trx.sessions.insertRefreshToken({
        token_hash: hashRefreshToken(refresh),
        session_id: sessionId,
        created_at: now,
      });
    });
    return { access: tokens.sign({ userId, sessionId }), refresh };
  }

  /**
   * `authenticate` without waiting when it need not: the user of a token this process checked lately
   * (or null for none, or a forged one) at once, a promise only when the session must be looked up.
   * The request hook (app.ts) then adds no promise to a signed-in reader's request.
   */
  function signedInUser(accessToken: string | undefined): AuthUser | null | Promise<AuthUser | null> {
    if (!accessToken) return null;
    const known = checked.known(accessToken);
    if (known) return known;
    const claims = tokens.verify(accessToken);
    if (!claims) return null;
    return checked
      .check(accessToken, async () => {
        const row = await sessions.findSessionUser(claims.sid, claims.sub, nowIso());
        if (!row) return undefined;
        const user: AuthUser = { id: row.id, username: row.username, role: row.role, sessionId: row.session_id };
        return { user, expiresAtMs: claims.exp * 1000 };
      })
      .then((user) => user ?? null);
  }
  return {
    /**
     * `chosenLanguage`: the language this browser chose (the `lang` cookie, set by the picker): the
     * new account keeps it, as Mastodon keeps the language one signs up in; anything else is none.
     */
    async signup(
      input: { username?: string; email?: string; password?: string },
      chosenLanguage?: string | null,
    ): Promise<void> {
      const language = isLanguage(chosenLanguage) ? chosenLanguage : null;
      const username = normalizeUsername(input.username ?? '');
      const email = input.email?.trim().toLowerCase() ?? '';
      const password = input.password ?? '';
      const error = usernameError(username) ?? emailError(email) ?? passwordError(password);
      if (error) throw new InvalidError(error);

      const passwordHash = await hashPassword(password);
      const now = nowIso();
      let sendVerification: SendAfterCommit;
      try {
        sendVerification = await data.transaction(async (trx) => {
          if (await trx.users.findUserByUsername(username))
            throw new ConflictError('Username is already taken', 'UsernameTaken');
          if (await trx.users.isUsernameRetired(username, now))
            throw new ConflictError(SECURITY_TEXTS.usernameRetired, 'UsernameRetired');
          if (await trx.users.findUserByEmail(email))
            throw new ConflictError('Email is already registered', 'EmailTaken');
          // The first account of an empty database runs the instance.
          const role = (await trx.users.isFirstAccount()) ? 'admin' : 'member';
          const id = newId();
          await trx.users.insertUser({
            id,
            username,
            username_lower: usernameKey(username),
            email,
            password_hash: passwordHash,
            role,
            avatar: null,
            banner: null,
            description: '',
            language,
            created_at: now,
            updated_at: now,
          });
          return emailVerification.stageVerification(trx, id, email, language);
        });
      } catch (err) {
        // Two sign-ups racing for the same name: the database's unique index decides.
        if (isUniqueViolation(err)) throw new ConflictError('Username or email is already taken', 'AccountTaken');
        throw err;
      }
      sendVerification();
    },

    /**
     * Wrong guesses lock the account for a while (doubling), but not for a device that has signed
     * in to it before (its device cookie): that device's own wrong guesses count instead.
     */
    async login(
      input: { email?: string; password?: string; code?: string },
      userAgent: string | null,
      deviceCookie: string | undefined,
    ): Promise<SignIn | TwoFactorRequired> {
      const email = input.email?.trim().toLowerCase() ?? '';
      const password = input.password ?? '';
      if (!email || !password) throw new InvalidError('Email and password are required');
      const device = devices.verify(deviceCookie, email);
      const key = device ? `device:${device}` : accountLockKey(email);
      const user = await users.findUserByEmail(email);
      const right = await guardedAttempt(lockout, key, tooManyWrongPasswords, async () =>
        user ? verifyPassword(user.password_hash, password) : verifyAgainstDummy(password),
      );
      if (!user || !right) throw new UnauthorizedError(TEXTS.invalidCredentials, 'InvalidCredentials');
      // Only a right password learns that the account is suspended.
      if (user.suspended_at !== null) throw suspended();
      if (needsRehash(user.password_hash)) {
        await users.replacePasswordHash(user.id, user.password_hash, await hashPassword(password));
      }
      // Only a right password learns that a code is needed; the code has its own lock per account.
      if (input.code === undefined || input.code === '') {
        if (await twoFactor.isEnabled(user.id)) return { twoFactorRequired: true };
      } else await twoFactor.confirm(user.id, input.code, 'signIn');
      const issued = await issueSession(user.id, userAgent);
      return { ...issued, device: device ? deviceCookie! : devices.issue(email) };
    },

    /** Rotates the refresh token. A token used twice revokes its whole family, except in a short race window. */
    async refresh(token: string | undefined): Promise<IssuedTokens> {
      // No refresh cookie (it expired, or was cleared) is a session that ended like any other.
      if (!token) throw unauthorized();
      const tokenHash = hashRefreshToken(token);
      const now = nowIso();
      const found = await sessions.findRefreshToken(tokenHash);
      // Suspension revokes the sessions too: the person learns why theirs ended, not just that it did.
      if (found && found.suspended_at !== null) throw suspended();
      if (!found || found.revoked_at !== null || found.expires_at <= now) throw unauthorized();

      const refresh = newRefreshToken();
      const won = await data.transaction(async (trx) => {
        if (!(await trx.sessions.claimRefreshToken(tokenHash, now))) return false;
        await trx.sessions.insertRefreshToken({
          token_hash: hashRefreshToken(refresh),
          session_id: found.session_id,
          created_at: now,
        });
        await trx.sessions.touchSession(found.session_id, now);
        return true;
      });
      if (!won) {
        const usedAt = found.used_at ?? now;
        const withinGrace = Date.now() - Date.parse(usedAt) < refreshReuseGraceMs;
        if (!withinGrace) await revoke({ userId: found.user_id, sessionId: found.session_id }, now);
        throw unauthorized('Refresh token was already used');
      }
      return { access: tokens.sign({ userId: found.user_id, sessionId: found.session_id }), refresh };
    },

    async logout(refreshToken: string | undefined, accessUser: AuthUser | null): Promise<void> {
      const now = nowIso();
      if (refreshToken) {
        const found = await sessions.findRefreshToken(hashRefreshToken(refreshToken));
        if (found) await revoke({ userId: found.user_id, sessionId: found.session_id }, now);
      }
      if (accessUser) await revoke({ userId: accessUser.id, sessionId: accessUser.sessionId }, now);
    },

    /** The user behind an access token, or null when the token or its session is not valid. */
    async authenticate(accessToken: string | undefined): Promise<AuthUser | null> {
      return signedInUser(accessToken);
    },

    signedInUser,

    /**
     * Whether the user's session is live in the database, whatever the session cache says
     * (`guard.ts`, `requireLiveSession`). One found ended is forgotten by every cache at once: this
     * instance's had not heard of it yet.
     */
    async isLive(user: AuthUser): Promise<boolean> {
      if (await sessions.findSessionUser(user.sessionId, user.id, nowIso())) return true;
      publish({ type: 'SessionRevoked', userId: user.id, sessionId: user.sessionId });
      return false;
    },

    /** After a password change: every other session of the user is revoked. */
    async revokeOtherSessions(userId: string, keepSessionId: string): Promise<void> {
      await sessions.revokeUserSessions(userId, nowIso(), keepSessionId);
      publish({ type: 'SessionsRevoked', userId, keptSessionId: keepSessionId });
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
