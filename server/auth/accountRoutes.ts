/** `/api/auth/sessions` and `/api/auth/2fa/*`: a signed-in user's devices and two-factor sign-in. */
import type { FastifyPluginAsync } from 'fastify';
import { errors, successSchema } from '../http/schemas';
import { clearSessionCookies } from './cookies';
import { type Guards, currentUser } from './guard';
import type { SessionsService } from './sessions';
import type { TwoFactorService } from './twoFactor';

const sessionSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    userAgent: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    lastUsedAt: { type: 'string' },
    current: { type: 'boolean' },
  },
} as const;

const codeBody = {
  type: 'object',
  properties: { code: { type: 'string', maxLength: 64 } },
} as const;

export interface AccountAuthRoutesOptions {
  sessions: SessionsService;
  twoFactor: TwoFactorService;
  guards: Guards;
  secureCookies: boolean;
}

export const accountAuthRoutes: FastifyPluginAsync<AccountAuthRoutesOptions> = async (
  app,
  { sessions, twoFactor, guards, secureCookies },
) => {
  const { signedIn, accountWrite } = guards;

  app.get(
    '/sessions',
    {
      preValidation: signedIn,
      schema: { tags: ['auth'], response: { 200: { type: 'array', items: sessionSchema }, ...errors(401) } },
    },
    async (request) => sessions.list(currentUser(request)),
  );

  app.delete(
    '/sessions',
    {
      preValidation: accountWrite,
      schema: { tags: ['auth'], response: { 200: successSchema, ...errors(401, 429) } },
    },
    async (request) => {
      await sessions.revokeOthers(currentUser(request));
      return { success: true };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/sessions/:id',
    {
      preValidation: accountWrite,
      schema: {
        tags: ['auth'],
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 100 } }, required: ['id'] },
        response: { 200: successSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await sessions.revoke(user, request.params.id);
      // Signing this very device out is a logout.
      if (request.params.id === user.sessionId) clearSessionCookies(reply, secureCookies);
      return { success: true };
    },
  );

  app.get(
    '/2fa',
    {
      preValidation: signedIn,
      schema: {
        tags: ['auth'],
        response: {
          200: {
            type: 'object',
            properties: { enabled: { type: 'boolean' }, recoveryCodesLeft: { type: 'integer' } },
          },
          ...errors(401),
        },
      },
    },
    async (request) => twoFactor.status(currentUser(request)),
  );

  app.post(
    '/2fa/setup',
    {
      preValidation: accountWrite,
      schema: {
        tags: ['auth'],
        response: {
          200: { type: 'object', properties: { otpauthUrl: { type: 'string' }, secret: { type: 'string' } } },
          ...errors(401, 409, 429),
        },
      },
    },
    async (request) => twoFactor.setup(currentUser(request)),
  );

  app.post<{ Body: { code?: string } }>(
    '/2fa/enable',
    {
      preValidation: accountWrite,
      schema: {
        tags: ['auth'],
        body: codeBody,
        response: {
          200: { type: 'object', properties: { recoveryCodes: { type: 'array', items: { type: 'string' } } } },
          ...errors(400, 401, 409, 429),
        },
      },
    },
    async (request) => twoFactor.enable(currentUser(request), request.body?.code),
  );

  app.post<{ Body: { password?: string; code?: string } }>(
    '/2fa/disable',
    {
      preValidation: accountWrite,
      schema: {
        tags: ['auth'],
        body: { type: 'object', properties: { password: { type: 'string' }, code: { type: 'string', maxLength: 64 } } },
        response: { 200: successSchema, ...errors(400, 401, 429) },
      },
    },
    async (request) => {
      await twoFactor.disable(currentUser(request), request.body ?? {});
      return { success: true };
    },
  );
};
