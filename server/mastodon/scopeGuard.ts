/**
 * The client API's scope guard: which token may call an endpoint (401 without one, 403 without the
 * scope, 422 for an app's own token where a person is needed), as Mastodon answers.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, preValidationHookHandler } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { covers } from '../oauth/scopes';

export const TOKEN_INVALID = 'The access token is invalid';
export const SCOPE_MISSING = 'This action is outside the authorized scopes';
export const USER_REQUIRED = 'This method requires an authenticated user';

/**
 * The guard of one endpoint: a token with `scope` (or its parent), and with `user` a person's token
 * (an app's own token is 422, as Mastodon answers).
 */
export function needs(scope: string, { user = true }: { user?: boolean } = {}): preValidationHookHandler {
  // Callback style: every client API request passes here, and nothing in it waits.
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const auth = request.bearer;
    if (!auth) return done(new UnauthorizedError(TOKEN_INVALID));
    if (!covers(auth.scopes, scope)) return done(new ForbiddenError(SCOPE_MISSING));
    if (user && !auth.user) return done(new HttpError(422, 'UnprocessableEntity', USER_REQUIRED));
    done();
  };
}
