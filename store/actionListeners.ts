/**
 * Effects that follow actions (a toast after a thunk, the lookup after a lost session): one small
 * middleware runs each listener of an action's type once the reducers have seen it. RTK's listener
 * middleware does this and much more; this is the part the app uses, for a fraction of its bytes in
 * every page's first load (docs/frontend.md, "State rules").
 */
import type { Middleware, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';

export interface ListenerApi {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any feature's thunks: their state is the store's
  dispatch: ThunkDispatch<any, undefined, UnknownAction>;
  getState: () => unknown;
}

export interface ActionListener {
  /** The action type it follows (`thunk.fulfilled.type`, `sessionLost.type`). */
  type: string;
  effect: (action: UnknownAction, api: ListenerApi) => unknown;
}

const ADD = 'actionListeners/add';

/** Starts more listeners (a feature loaded on demand); the action reaches no reducer. */
export const addListeners = (listeners: readonly ActionListener[]) => ({ type: ADD, payload: listeners });

const isAdd = (action: unknown): action is ReturnType<typeof addListeners> =>
  (action as { type?: unknown }).type === ADD;

const lazyListeners: ActionListener[] = [];

/**
 * Starts listeners in every store, made or to come: a slice that joins the store when its code
 * arrives (`injectInto`) starts its toasts with it, whichever screen then dispatches its thunks.
 */
export function addLazyListeners(listeners: readonly ActionListener[]): void {
  for (const listener of listeners) if (!lazyListeners.includes(listener)) lazyListeners.push(listener);
}

/** The middleware, with `initial` started; a listener added twice (same type and effect) runs once. */
export function actionListeners(initial: readonly ActionListener[]): Middleware {
  return (api) => {
    const byType = new Map<string, Set<ActionListener['effect']>>();
    const add = (listeners: readonly ActionListener[]) => {
      for (const { type, effect } of listeners) {
        const effects = byType.get(type) ?? new Set();
        byType.set(type, effects.add(effect));
      }
    };
    add(initial);
    let lazyAdded = 0;
    const failed = (error: unknown) => console.error('An action listener failed', error);
    return (next) => (action) => {
      if (isAdd(action)) {
        add(action.payload);
        return action;
      }
      if (lazyAdded !== lazyListeners.length) {
        add(lazyListeners.slice(lazyAdded));
        lazyAdded = lazyListeners.length;
      }
      const result = next(action);
      for (const effect of byType.get((action as UnknownAction).type) ?? []) {
        try {
          Promise.resolve(effect(action as UnknownAction, api as ListenerApi)).catch(failed);
        } catch (error) {
          failed(error);
        }
      }
      return result;
    };
  };
}
