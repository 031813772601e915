/** Password reset and email verification: `/api/auth/password/*` and `/api/auth/email/*`. */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import { rateLimit } from '../http/rateLimits';
import { errors, successSchema } from '../http/schemas';
import { hashEmailToken } from './emailTokens';
import type { EmailVerificationService } from './emailVerification';
import { type Guards, currentUser } from './guard';
import type { PasswordResetService } from './passwordReset';

const HOUR_MS = 60 * 60 * 1000;

const bodyOf = (properties: Record<string, { type: 'string' }>) => ({ type: 'object', properties }) as const;
const field = (body: unknown, name: string): string | null => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value ? value.trim().toLowerCase() : null;
};

export interface EmailRoutesOptions {
  config: Config;
  passwordReset: PasswordResetService;
  emailVerification: EmailVerificationService;
  guards: Guards;
}

export const emailRoutes: FastifyPluginAsync<EmailRoutesOptions> = async (
  app,
  { config, passwordReset, emailVerification, guards },
) => {
  const limits = config.rateLimits;
  const perIp = rateLimit(app, 'email-links-ip', limits.authPerIpPerMinute, (r) => r.ip);
  // Mails to one address (or from one user) per hour: nobody can flood an inbox through us.
  const perAddress = rateLimit(
    app,
    'reset-mails',
    limits.mailsPerAddressPerHour,
    (r) => field(r.body, 'email'),
    HOUR_MS,
  );
  const perUser = rateLimit(app, 'verify-mails', limits.mailsPerAddressPerHour, (r) => r.user?.id ?? null, HOUR_MS);
  // A link's token is unguessable; this only keeps one from being hammered (counted by its hash).
  const perToken = rateLimit(app, 'email-token', limits.authPerAccountPerMinute, (r) => {
    const token = (r.body as { token?: unknown } | undefined)?.token;
    return typeof token === 'string' && token ? hashEmailToken(token) : null;
  });

  app.post<{ Body: { email?: string } }>(
    '/password/forgot',
    {
      preHandler: [perIp, perAddress],
      schema: {
        tags: ['auth'],
        body: bodyOf({ email: { type: 'string' } }),
        response: { 200: successSchema, ...errors(400, 429) },
      },
    },
    async (request) => {
      passwordReset.forgot(request.body ?? {});
      return { success: true };
    },
  );

  app.post<{ Body: { token?: string; password?: string } }>(
    '/password/reset',
    {
      preHandler: [perIp, perToken],
      schema: {
        tags: ['auth'],
        body: bodyOf({ token: { type: 'string' }, password: { type: 'string' } }),
        response: { 200: successSchema, ...errors(400, 429) },
      },
    },
    async (request) => {
      await passwordReset.reset(request.body ?? {});
      return { success: true };
    },
  );

  app.post<{ Body: { token?: string } }>(
    '/email/verify',
    {
      preHandler: [perIp, perToken],
      schema: {
        tags: ['auth'],
        body: bodyOf({ token: { type: 'string' } }),
        response: {
          200: { type: 'object', properties: { success: { type: 'boolean' }, email: { type: 'string' } } },
          ...errors(400, 409, 429),
        },
      },
    },
    async (request) => ({ success: true, ...(await emailVerification.verify(request.body ?? {})) }),
  );

  app.post(
    '/email/resend',
    {
      preValidation: guards.write,
      preHandler: perUser,
      schema: { tags: ['auth'], response: { 200: successSchema, ...errors(400, 401, 429) } },
    },
    async (request) => {
      await emailVerification.resend(currentUser(request));
      return { success: true };
    },
  );
};
