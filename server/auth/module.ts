/**
 * The accounts feature wired: sessions and their cache, passwords and their lockout, two-factor
 * sign-in, email verification and password resets (`context.ts` builds it, `app.ts` registers its
 * routes).
 */
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { CacheRegistry } from '../cache/registry';
import type { Config } from '../config';
import type { PublishEvent } from '../events/domainEvents';
import type { RedisFallback } from '../instance/redisFallback';
import type { Mailer } from '../mail/mailer';
import type { Outbox } from '../mail/outbox';
import type { Activity } from '../metrics/activity';
import type { OwnAccount } from './accounts';
import { accountAuthRoutes } from './accountRoutes';
import { currentPasswordCheck } from './currentPassword';
import { deviceCookies } from './devices';
import { type EmailVerificationDeps, emailVerificationService } from './emailVerification';
import { emailRoutes } from './emailRoutes';
import type { Guards } from './guard';
import { memoryLockout, redisOrMemoryLockout } from './lockout';
import { type PasswordResetDeps, passwordResetService } from './passwordReset';
import { authRoutes } from './routes';
import { type AuthServiceDeps, authService } from './service';
import { sessionCache } from './sessionCache';
import { sessionsService } from './sessions';
import { accessTokens } from './tokens';
import { type TwoFactorDeps, twoFactorService } from './twoFactor';

export interface AuthFeatureDeps {
  config: Config;
  data: AuthServiceDeps['data'] & TwoFactorDeps['data'] & EmailVerificationDeps['data'] & PasswordResetDeps['data'];
  caches: CacheRegistry;
  publish: PublishEvent;
  outbox: Outbox;
  mailer: Mailer;
  /** Wrong guesses counted in Redis when several instances run. */
  redis: { client: Redis; fallback: RedisFallback } | null;
  /** The time two-factor codes are checked at; tests pin it so no code straddles a 30-second step. */
  totpClock?: () => number;
}

export type AuthFeature = ReturnType<typeof authFeature>;

export function authFeature({ config, data, caches, publish, outbox, mailer, redis, totpClock }: AuthFeatureDeps) {
  const site = { name: config.instanceName, url: config.siteUrl };
  const checked = sessionCache(caches, { ttlMs: config.sessionCacheMs });
  const emailVerification = emailVerificationService({ data, outbox, mailer, site });
  const lockoutOf = (maxFailures: number) =>
    redis ? redisOrMemoryLockout(redis.client, redis.fallback, { maxFailures }) : memoryLockout({ maxFailures });
  // One count of wrong passwords per account: sign-ins and the current password asked in Settings.
  const passwordLockout = lockoutOf(config.rateLimits.authPerAccountPerMinute);
  const checkPassword = currentPasswordCheck(passwordLockout);
  const twoFactor = twoFactorService({
    data,
    serverSecret: config.jwtSecret,
    lockout: lockoutOf(config.rateLimits.twoFactorPerAccountPerMinute),
    checkPassword,
    issuer: config.instanceName,
    now: totpClock,
  });
  const auth = authService({
    data,
    tokens: accessTokens(config.jwtSecret),
    checked,
    refreshReuseGraceMs: config.refreshReuseGraceMs,
    lockout: passwordLockout,
    devices: deviceCookies(config.jwtSecret),
    emailVerification,
    twoFactor,
    publish,
  });
  return {
    auth,
    /** Access tokens checked lately (the client API's tokens too). */
    checked,
    /** The current password asked before a change in Settings, counted like a sign-in's. */
    checkPassword,
    twoFactor,
    /** Email verification and email changes (issue 22). */
    emailVerification,
    /** Password reset links (issue 22). */
    passwordReset: passwordResetService({ data, publish, outbox, mailer, site }),
    /** A user's own sessions (Settings' device list). */
    sessions: sessionsService({ sessions: data.sessions, publish, revokeOtherSessions: auth.revokeOtherSessions }),
  };
}

export async function registerAuthRoutes(
  app: FastifyInstance,
  deps: Pick<AuthFeature, 'auth' | 'emailVerification' | 'passwordReset' | 'sessions' | 'twoFactor'> & {
    config: Config;
    users: OwnAccount;
    activity: Activity;
    guards: Guards;
  },
) {
  const { config, guards } = deps;
  const prefix = '/api/auth';
  await app.register(authRoutes, { prefix, config, auth: deps.auth, users: deps.users, activity: deps.activity });
  await app.register(emailRoutes, {
    prefix,
    config,
    passwordReset: deps.passwordReset,
    emailVerification: deps.emailVerification,
    guards,
  });
  await app.register(accountAuthRoutes, {
    prefix,
    sessions: deps.sessions,
    twoFactor: deps.twoFactor,
    guards,
    secureCookies: config.secureCookies,
  });
}
