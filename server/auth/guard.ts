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

/**
 * preHandler for the writes a session that has ended must never make, even where a cache still
 * lets it in: its session is looked up in the database (`isLive`), not taken from the session cache.
 * On several instances an instance hears of a revocation through the bus a moment after it
 * committed (minutes while Redis is away), and meanwhile takes the ended session. For a read or a
 * post that is the price of the cache; but that session signing out everywhere else, signing a
 * device out, changing the password, the two-factor setting or deleting the account would end (or
 * lock out) the session its owner signed in with since: one instance would refuse it (issue 67).
 */
export function requireLiveSession(isLive: (user: AuthUser) => Promise<boolean>): preHandlerAsyncHookHandler {
  return async (request) => {
    if (!(await isLive(currentUser(request)))) throw new UnauthorizedError(TEXTS.notLoggedIn, 'Unauthorized');
  };
}

/**
 * preHandlers: signed-in reads; signed-in writes (rate limited per user); and, among those, the
 * writes on sessions and sign-in (`requireLiveSession`): ending sessions (own devices, every other
 * one, an authorised app, a suspension), the password and email, two-factor sign-in, deleting the
 * account.
 */
export interface Guards {
  signedIn: preHandlerAsyncHookHandler[];
  write: preHandlerAsyncHookHandler[];
  accountWrite: preHandlerAsyncHookHandler[];
}
