import { createAction } from '@reduxjs/toolkit';

/**
 * A call of the signed-in user was refused with 401 after the API client's one refresh and retry
 * (spec section 8): the session could not be renewed (revoked elsewhere, expired). The store's
 * session middleware (`store/sessionMiddleware.ts`) then looks the user up once more: a failed
 * lookup signs them out, and the shell's guard sends them to `/`.
 */
export const sessionLost = createAction('auth/sessionLost');

/**
 * Whether a failed call's error means the session is gone: an HTTP 401 reached the caller, which
 * the API client lets through only when the refresh failed or the retry was refused again. Reads
 * the status where axios puts it (`error.response.status`), as the fetch client does too. Not for
 * the auth calls themselves (a wrong password at login is a 401 too).
 */
export function isSessionLost(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const response = (error as { response?: { status?: unknown } }).response;
  return response?.status === 401;
}
