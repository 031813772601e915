import { createSlice, type WithSlice } from '@reduxjs/toolkit';
import { textOf } from '../../../lib/i18n/appTexts';
import { errorMessage } from '../../../services/apiClient';
import { rootReducer, type RootState } from '../../../store/index';
import { done, failed, started } from '../../../store/status';
import { addLazyListeners } from '../../../store/actionListeners';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { fetchLoggedUser } from '../../auth';
import { usersApi } from './usersApi';
import { initialState } from './profileState';

export type { UserState } from './profileState';

/** The profile page shows its own load error. */
export const fetchProfile = createAppAsyncThunk(
  'user/fetchProfile',
  // `quiet` refreshes the profile on screen without a loading state.
  async ({ username }: { username: string; quiet?: boolean }, { rejectWithValue }) => {
    try {
      return await usersApi.profile(username);
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);

function followThunk(type: string, call: typeof usersApi.follow) {
  return createAppAsyncThunk(type, async (username: string, { getState, dispatch, rejectWithValue }) => {
    const user = getState().auth.user;
    try {
      if (!user) throw new Error(textOf('auth.toasts.notLoggedIn'));
      const profile = await call(username, user._id);
      // The spec refreshes both sides: my counts and theirs.
      void dispatch(fetchLoggedUser());
      void dispatch(fetchProfile({ username, quiet: true }));
      return profile;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  });
}

export const followUser = followThunk('user/followUser', usersApi.follow);
export const unfollowUser = followThunk('user/unfollowUser', usersApi.unfollow);

/** The profile page shows its own load error; following and unfollowing toast (started in every store once this module loads). */
export const userToasts: ToastListener[] = [
  // Someone who approves followers gets a request (issue 70): the toast says so.
  ...thunkToasts(followUser, {
    success: (username, profile) =>
      profile.followRequestedByMe
        ? textOf('people.toasts.requestSent', { username })
        : textOf('people.toasts.following', { username }),
  }),
  ...thunkToasts(unfollowUser, { success: (username) => textOf('people.toasts.unfollowed', { username }) }),
];

const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {
    profileCleared(state) {
      state.profile = initialState.profile;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchProfile.pending, (state, action) => {
        state.profileRead = action.meta.requestId;
        if (action.meta.arg.quiet) return;
        state.profile = { data: null, loading: true, error: null };
      })
      .addCase(fetchProfile.fulfilled, (state, action) => {
        if (action.meta.requestId !== state.profileRead) return;
        state.profile = { data: action.payload, loading: false, error: null };
      })
      .addCase(fetchProfile.rejected, (state, action) => {
        if (action.meta.arg.quiet || action.meta.requestId !== state.profileRead) return;
        state.profile = { data: null, loading: false, error: action.payload ?? action.error.message ?? null };
      })
      .addCase(followUser.pending, (state) => started(state.follow))
      .addCase(followUser.fulfilled, (state, action) => {
        done(state.follow);
        if (state.profile.data?.username === action.payload.username) state.profile.data = action.payload;
      })
      .addCase(followUser.rejected, (state, action) => failed(state.follow, action.payload ?? action.error.message))
      .addCase(unfollowUser.pending, (state) => started(state.unfollow))
      .addCase(unfollowUser.fulfilled, (state, action) => {
        done(state.unfollow);
        if (state.profile.data?.username === action.payload.username) state.profile.data = action.payload;
      })
      .addCase(unfollowUser.rejected, (state, action) =>
        failed(state.unfollow, action.payload ?? action.error.message),
      );
  },
});

declare module '../../../store/index' {
  // Adds `user` to RootState once a profile page's code has loaded: only it reads the slice, so the
  // slice travels with it, not with every page's first load (like the admin panel's).
  export interface LazyLoadedSlices extends WithSlice<typeof userSlice> {}
}

const injected = userSlice.injectInto(rootReducer);
addLazyListeners(userToasts);

export const { profileCleared } = userSlice.actions;

export const selectProfile = (state: RootState) => injected.selectSlice(state).profile;
export const selectFollowState = (state: RootState) => injected.selectSlice(state);
