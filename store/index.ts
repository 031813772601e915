import { combineSlices, configureStore, type Middleware } from '@reduxjs/toolkit';
import { onSessionLost } from '../services/apiClient';
import auth, { authToasts } from '../features/auth/state/authSlice';
import notifications from '../features/notifications/state/notificationsSlice';
import toasts from '../features/toasts/state/toastsSlice';
import firstLoad from './firstLoadSlice';
import theme from '../features/settings/state/themeSlice';
import { actionListeners } from './actionListeners';
import { sessionLoss, sessionLost } from './sessionLost';

/**
 * The slices a feature loaded on demand adds to the store when its code arrives (the admin panel's,
 * a profile's, the uploads', the posts'):
 * each declares itself here (`declare module`) and injects itself (`slice.injectInto(rootReducer)`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the lazy slices' declarations
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({
  auth,
  toasts,
  notifications,
  theme,
  firstLoad,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

const lazyMiddlewares: Middleware[] = [];

/**
 * Adds middleware to every store, made or to come: RTK Query's, by `store/queryApi.ts` when a
 * screen using it loads, so RTK Query stays out of every page's first load. (What RTK's
 * `createDynamicMiddleware` does, in the few lines the first load can afford: docs/frontend.md.)
 */
export function addLazyMiddleware(middleware: Middleware): void {
  if (!lazyMiddlewares.includes(middleware)) lazyMiddlewares.push(middleware);
}

/** Runs the lazily added middleware, each applied once per store (it keeps its state there). */
const lazyMiddleware: Middleware = (store) => (next) => {
  const applied = new Map<Middleware, ReturnType<Middleware>>();
  let chain = next;
  let length = 0;
  return (action) => {
    if (length !== lazyMiddlewares.length) {
      length = lazyMiddlewares.length;
      chain = lazyMiddlewares.reduceRight((after, middleware) => {
        if (!applied.has(middleware)) applied.set(middleware, middleware(store));
        return applied.get(middleware)!(after);
      }, next);
    }
    return chain(action);
  };
};

/**
 * A fresh store per mount (and per request when rendered on the server), with its listeners: the
 * toasts of the features it holds and the session-loss lookup. In the browser it also becomes the
 * store the API client tells when a session renewal is refused.
 */
export function makeStore(preloadedState?: Partial<RootState>) {
  const listeners = actionListeners([...authToasts, sessionLoss()]);
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(listeners).concat(lazyMiddleware),
  });
  // The server never calls the API client: its pages get their data in-process.
  if (typeof window !== 'undefined') onSessionLost(() => store.dispatch(sessionLost()));
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
