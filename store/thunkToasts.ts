import { isFulfilled, isRejected, type Middleware, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { notify } from '../features/notifications/notificationsSlice';

/**
 * A thunk's toasts. By default a failure shows its message as an error toast and a success shows
 * nothing; `error: false` is for thunks whose page shows the error itself (a list, the session lookup).
 */
export interface ThunkToasts<Arg, Returned = unknown> {
  error?: false | { time: number };
  /** A text, or one made from the argument and the result (null: no toast this time). */
  success?: string | ((arg: Arg, result: Returned) => string | null);
}

const declared = new Map<string, ThunkToasts<never, never>>();

/** Declares a thunk's toasts, next to the thunk; the store's toast middleware below shows them. */
export function declareToasts<Arg, Returned = unknown>(
  thunk: { typePrefix: string; fulfilled: (payload: Returned, ...rest: never[]) => unknown } & ((arg: Arg) => unknown),
  toasts: ThunkToasts<Arg, Returned>,
): void {
  declared.set(thunk.typePrefix, toasts as ThunkToasts<never, never>);
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
      const text = typeof success === 'function' ? success(action.meta.arg as never, action.payload as never) : success;
      if (text) dispatch(notify(text, 'success'));
    }
    return result;
  };
