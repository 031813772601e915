import { createAction } from '@reduxjs/toolkit';
import { fetchLoggedUser } from '../features/auth/state/authSlice';
import type { ActionListener } from './actionListeners';

/**
 * The server refused to renew the session (revoked elsewhere, expired): the API client's
 * interceptor says so once per refused refresh (`onSessionLost` in services/apiClient.ts), and the
 * store, which set that handler when it was built, dispatches this. No caller handles it itself.
 */
export const sessionLost = createAction('auth/sessionLost');

/**
 * On `sessionLost` the user is looked up once more (one lookup however many refreshes failed
 * meanwhile): the server renews the session on that call if it still can (the loser of a two-tab
 * refresh race holds the winner's cookies by then), and a failed lookup means signed out
 * (`fetchLoggedUser.rejected` clears the user), so AppShell's guard sends the user from a private
 * page to `/`.
 */
export function sessionLoss(): ActionListener {
  let checking = false;
  return {
    type: sessionLost.type,
    effect: async (_, { dispatch }) => {
      if (checking) return;
      checking = true;
      try {
        await dispatch(fetchLoggedUser());
      } finally {
        checking = false;
      }
    },
  };
}
