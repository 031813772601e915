import { combineReducers, configureStore } from '@reduxjs/toolkit';
import auth from '../features/auth/authSlice';
import notifications from '../features/notifications/notificationsSlice';
import posts from '../features/posts/state/postsSlice';
import firstLoad from './firstLoadSlice';
import theme from '../features/settings/themeSlice';
import uploadFiles from '../features/uploads/uploadFilesSlice';
import user from '../features/profile/userSlice';
import { sessionMiddleware } from './sessionMiddleware';
import { thunkToastsMiddleware } from './thunkToasts';

const rootReducer = combineReducers({ auth, posts, notifications, uploadFiles, theme, user, firstLoad });

export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store per mount (and per request when rendered on the server). */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(thunkToastsMiddleware, sessionMiddleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
