import type { FastifyPluginAsync } from 'fastify';
import { LANGUAGE_COOKIE } from '../../lib/i18n/languages';
import type { Config } from '../config';
import { InvalidError, TooManyAttemptsError, UnauthorizedError } from '../domain/errors';
import type { Activity, SignInResult } from '../metrics/activity';
import { rateLimit } from '../http/rateLimits';
import { errors, successSchema, userSchema } from '../http/schemas';
import type { OwnAccount } from './accounts';
import { REFRESH_COOKIE, clearSessionCookies, setSessionCookies } from './cookies';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from './devices';
import { currentUser } from './guard';
import type { AuthService } from './service';

interface Credentials {
  username?: string;
  email?: string;
  password?: string;
  /** Sign-in only: a TOTP or recovery code, for accounts with two-factor sign-in. */
  code?: string;
}

const credentialsSchema = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    code: { type: 'string', maxLength: 64 },
  },
} as const;

const loginSchema = {
  type: 'object',
  properties: { success: { type: 'boolean' }, twoFactorRequired: { type: 'boolean' } },
  required: ['success'],
} as const;

export interface AuthRoutesOptions {
  config: Config;
  auth: AuthService;
  users: OwnAccount;
  /** Sign-ins and sign-ups are counted for `/metrics`. */
  activity: Activity;
}

/** What a refused sign-in counts as: wrong credentials (or a suspended account), a lockout, or our failure. */
const refusalOf = (error: unknown): SignInResult =>
  error instanceof UnauthorizedError || error instanceof InvalidError
    ? 'failed'
    : error instanceof TooManyAttemptsError
      ? 'locked'
      : 'error';

export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { config, auth, users, activity }) => {
  const limits = config.rateLimits;
  const perIp = rateLimit(app, 'auth-ip', limits.authPerIpPerMinute, (r) => r.ip);
  const perAccount = rateLimit(app, 'auth-account', limits.authPerAccountPerMinute, (r) => {
    const email = (r.body as Credentials | undefined)?.email;
    return typeof email === 'string' && email ? email.trim().toLowerCase() : null;
  });

  app.post<{ Body: Credentials }>(
    '/signup',
    {
      preHandler: [perIp, perAccount],
      schema: { tags: ['auth'], body: credentialsSchema, response: { 201: successSchema, ...errors(400, 409, 429) } },
    },
    async (request, reply) => {
      // The language chosen with the picker before signing up becomes the account's (issue 75).
      await auth.signup(request.body ?? {}, request.cookies[LANGUAGE_COOKIE]);
      activity.signUps++;
      return reply.code(201).send({ success: true });
    },
  );

  app.post<{ Body: Credentials }>(
    '/login',
    {
      // Per IP here; wrong guesses per account are the service's rule (lockout, device cookies).
      preHandler: perIp,
      schema: { tags: ['auth'], body: credentialsSchema, response: { 200: loginSchema, ...errors(400, 401, 429) } },
    },
    async (request, reply) => {
      const signIn = await auth
        .login(request.body ?? {}, request.headers['user-agent'] ?? null, request.cookies[DEVICE_COOKIE])
        .catch((error: unknown) => {
          activity.signIns[refusalOf(error)]++;
          throw error;
        });
      // No cookie of any kind until the second factor is in.
      if ('twoFactorRequired' in signIn) {
        activity.signIns.two_factor_required++;
        return { success: false, twoFactorRequired: true };
      }
      activity.signIns.success++;
      setSessionCookies(reply, config.secureCookies, signIn);
      reply.setCookie(DEVICE_COOKIE, signIn.device, {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.secureCookies,
        // Only sign-in reads it.
        path: '/api/auth/login',
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
      });
      return { success: true };
    },
  );

  app.get(
    '/getLoggedUser',
    {
      schema: { tags: ['auth'], response: { 200: userSchema, ...errors(401) } },
    },
    async (request, reply) => {
      // The client never refreshes for this call (spec section 8), so a returning visitor whose
      // 15-minute access token has lapsed is refreshed here, from the refresh cookie, in one trip.
      if (!request.user && request.cookies[REFRESH_COOKIE]) {
        await perIp(request);
        const tokens = await auth.refresh(request.cookies[REFRESH_COOKIE]);
        setSessionCookies(reply, config.secureCookies, tokens);
        request.user = await auth.authenticate(tokens.access);
      }
      return users.account(currentUser(request));
    },
  );

  app.post(
    '/refresh',
    {
      preHandler: perIp,
      schema: { tags: ['auth'], response: { 200: successSchema, ...errors(401, 429) } },
    },
    async (request, reply) => {
      // A failed refresh leaves the cookies alone: in a two-tab race the winner's new cookies must survive.
      const tokens = await auth.refresh(request.cookies[REFRESH_COOKIE]);
      setSessionCookies(reply, config.secureCookies, tokens);
      return { success: true };
    },
  );

  app.post(
    '/logout',
    {
      schema: { tags: ['auth'], response: { 200: successSchema } },
    },
    async (request, reply) => {
      await auth.logout(request.cookies[REFRESH_COOKIE], request.user ?? null);
      clearSessionCookies(reply, config.secureCookies);
      return { success: true };
    },
  );
};
