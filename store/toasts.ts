import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { showToast, toastGroupCleared } from '../features/toasts/state/toastsSlice';
import { type ActionListener, addListeners } from './actionListeners';

/**
 * One toast rule: a listener on one action type (a thunk's `rejected` or `fulfilled`). The store
 * starts the rules of the features it holds when it is built (store/index.ts); a feature loaded on
 * demand starts its own with `useToasts` when its component mounts.
 */
export type ToastListener = ActionListener;

/** A thunk as the rules read it: its action creators and its argument. */
type Thunk<Arg, Returned> = {
  fulfilled: { type: string } & ((payload: Returned, ...rest: never[]) => unknown);
  rejected: { type: string };
} & ((arg: Arg) => unknown);

export interface ThunkToasts<Arg, Returned = unknown> {
  /**
   * `false`: the page shows the error in place (a list, the session lookup); `time`: how long it
   * stays; `group`: what may take it back early (`toastGroupCleared`).
   */
  error?: false | { time: number; group?: string };
  /** A text, or one made from the argument and the result (null: no toast this time). */
  success?: string | ((arg: Arg, result: Returned) => string | null);
}

/**
 * A thunk's toast rules. By default a failure shows its message (the server's) as an error toast and
 * a success shows nothing; a slice never shows a toast itself.
 */
export function thunkToasts<Arg, Returned = unknown>(
  thunk: Thunk<Arg, Returned>,
  { error, success }: ThunkToasts<Arg, Returned> = {},
): ToastListener[] {
  const rules: ToastListener[] = [];
  if (error !== false) {
    rules.push({
      type: thunk.rejected.type,
      effect: (action, { dispatch }) => {
        const { payload, error: thrown } = action as { payload?: unknown; error?: { message?: string } };
        const message = payload ?? thrown?.message;
        if (typeof message === 'string' && message) dispatch(showToast(message, 'error', error?.time, error?.group));
      },
    });
  }
  if (success) {
    rules.push({
      type: thunk.fulfilled.type,
      effect: (action, { dispatch }) => {
        const { payload, meta } = action as unknown as { payload: Returned; meta: { arg: Arg } };
        const text = typeof success === 'function' ? success(meta.arg, payload) : success;
        if (text) dispatch(showToast(text, 'success'));
      },
    });
  }
  return rules;
}

/** Rules that take a group's toasts away when one of `actions` happens (a new try, its success). */
export function clearToastsOn(group: string, actions: readonly { type: string }[]): ToastListener[] {
  return actions.map(({ type }) => ({ type, effect: (_, { dispatch }) => void dispatch(toastGroupCleared(group)) }));
}

/**
 * Starts the toast rules of a feature loaded on demand (its chunk is not in the store's): once per
 * store, however often its components mount (the listeners keep one entry per rule), and
 * kept after they unmount, so a call that ends on another page still toasts.
 */
export function useToasts(rules: readonly ToastListener[]): void {
  const dispatch = useDispatch();
  useEffect(() => {
    dispatch(addListeners(rules));
  }, [dispatch, rules]);
}
