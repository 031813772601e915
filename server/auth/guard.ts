import type { FastifyRequest } from 'fastify';
import { TEXTS } from '../../lib/texts';
import { HttpError } from '../http/errors';
import type { AuthUser } from './service';

/** preHandler for routes that need a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new HttpError(401, 'Unauthorized', TEXTS.notLoggedIn);
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new HttpError(401, 'Unauthorized', TEXTS.notLoggedIn);
  return request.user;
}
