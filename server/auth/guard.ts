import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { TEXTS } from '../../lib/texts';
import { ForbiddenError, UnauthorizedError } from '../domain/errors';
import type { AuthUser } from '../domain/types';

/** preHandler for routes that need a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new UnauthorizedError(TEXTS.notLoggedIn, 'Unauthorized');
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new UnauthorizedError(TEXTS.notLoggedIn, 'Unauthorized');
  return request.user;
}

/** preHandler after the signed-in guards: admins only (403 for everyone else signed in). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (currentUser(request).role !== 'admin') throw new ForbiddenError('Only admins can do this', 'AdminOnly');
}

/** preHandlers: signed-in reads, and signed-in writes (rate limited per user). */
export interface Guards {
  signedIn: preHandlerAsyncHookHandler[];
  write: preHandlerAsyncHookHandler[];
}
