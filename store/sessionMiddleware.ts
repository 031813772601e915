import type { Middleware, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { fetchLoggedUser } from '../features/auth/authSlice';
import type { RootState } from './index';
import { sessionLost } from './sessionLost';

/**
 * When a call says the session is gone (`sessionLost`), the user is looked up once more (one
 * lookup however many calls failed at once): the server renews the session on that call if it
 * still can (the loser of a two-tab refresh race holds the winner's cookies by then), and a failed
 * lookup means signed out (`fetchLoggedUser.rejected` clears the user), so AppShell's guard sends
 * the user from a private page to `/`.
 */
export const sessionMiddleware: Middleware<object, RootState, ThunkDispatch<RootState, undefined, UnknownAction>> = ({
  dispatch,
}) => {
  let checking: Promise<unknown> | null = null;
  return (next) => (action) => {
    const result = next(action);
    if (sessionLost.match(action) && !checking) {
      checking = dispatch(fetchLoggedUser()).finally(() => {
        checking = null;
      });
    }
    return result;
  };
};
