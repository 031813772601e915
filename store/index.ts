import { combineReducers, configureStore } from '@reduxjs/toolkit';
import auth from './slices/authSlice';
import notifications from './slices/notificationsSlice';
import posts from './slices/postsSlice';
import firstLoad from './firstLoadSlice';
import theme from './slices/themeSlice';
import uploadFiles from './slices/uploadFilesSlice';
import user from './slices/userSlice';

const rootReducer = combineReducers({ auth, posts, notifications, uploadFiles, theme, user, firstLoad });

export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store per mount (and per request when rendered on the server). */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({ reducer: rootReducer, preloadedState });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
