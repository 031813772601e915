import { isFulfilled, isRejected, type Middleware, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { notify } from '../features/notifications/notificationsSlice';

/**
 * A thunk's toasts. By default a failure shows its message as an error toast and a success shows
 * nothing; `error: false` is for thunks whose page shows the error itself (a list, the session lookup).
 */
export interface ThunkToasts<Arg> {
  error?: false | { time: number };
  success?: string | ((arg: Arg) => string);
}

const declared = new Map<string, ThunkToasts<never>>();

/** Declares a thunk's toasts, next to the thunk; the store's toast middleware below shows them. */
export function declareToasts<Arg>(
  thunk: { typePrefix: string } & ((arg: Arg) => unknown),
  toasts: ThunkToasts<Arg>,
): void {
  declared.set(thunk.typePrefix, toasts as ThunkToasts<never>);
}

const typePrefix = (type: string) => type.slice(0, type.lastIndexOf('/'));

/**
 * The one path from a thunk to its toasts: slices never show toasts themselves. A plain middleware:
 * RTK's listener middleware would grow the shared bundle for nothing (docs/frontend.md, State rules).
 */
export const thunkToastsMiddleware: Middleware<object, unknown, ThunkDispatch<unknown, unknown, UnknownAction>> =
  ({ dispatch }) =>
  (next) =>
  (action) => {
    const result = next(action);
    if (isRejected(action)) {
      const error = declared.get(typePrefix(action.type))?.error;
      const message = action.payload ?? action.error.message;
      if (error !== false && typeof message === 'string' && message) dispatch(notify(message, 'error', error?.time));
    } else if (isFulfilled(action)) {
      const success = declared.get(typePrefix(action.type))?.success;
      if (success)
        dispatch(notify(typeof success === 'string' ? success : success(action.meta.arg as never), 'success'));
    }
    return result;
  };
