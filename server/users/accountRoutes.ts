/** `/api/users/me/export` and `DELETE /api/users/me`: the signed-in user's data, taken out or deleted. */
import type { FastifyPluginAsync } from 'fastify';
import { clearSessionCookies } from '../auth/cookies';
import { type Guards, currentUser } from '../auth/guard';
import { rateLimit } from '../http/rateLimits';
import { errors, successSchema } from '../http/schemas';
import type { AccountDeletion } from './deletion';
import type { AccountExport } from './export';

export interface AccountRoutesOptions {
  exports: AccountExport;
  deletion: AccountDeletion;
  guards: Guards;
  exportsPerHour: number;
  secureCookies: boolean;
}

export const accountRoutes: FastifyPluginAsync<AccountRoutesOptions> = async (
  app,
  { exports, deletion, guards, exportsPerHour, secureCookies },
) => {
  const perUserPerHour = rateLimit(app, 'exports', exportsPerHour, (r) => r.user?.id ?? null, 3_600_000);

  app.get(
    '/me/export',
    {
      preValidation: [...guards.signedIn, perUserPerHour],
      schema: { tags: ['users'], response: errors(401, 429) },
    },
    async (request, reply) => {
      const { filename, stream } = await exports.open(currentUser(request));
      reply.type('application/zip').header('Content-Disposition', `attachment; filename="${filename}"`);
      return reply.send(stream);
    },
  );

  app.delete<{ Body: { password?: string; code?: string } }>(
    '/me',
    {
      preValidation: guards.accountWrite,
      schema: {
        tags: ['users'],
        body: { type: 'object', properties: { password: { type: 'string' }, code: { type: 'string', maxLength: 64 } } },
        response: { 200: successSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      await deletion.remove(currentUser(request), request.body ?? {});
      clearSessionCookies(reply, secureCookies);
      return { success: true };
    },
  );
};
