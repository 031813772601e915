import { createSlice } from '@reduxjs/toolkit';
import { TEXTS } from '../../../lib/texts';
import type { Profile } from '../../../lib/types';
import { errorMessage } from '../../../services/apiClient';
import type { RootState } from '../../../store/index';
import { done, failed, idle, started, type ActionStatus } from '../../../store/status';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { fetchLoggedUser } from '../../auth';
import { usersApi } from './usersApi';

export interface UserState {
  profile: { data: Profile | null; loading: boolean; error: string | null };
  /** The last profile read asked (its request id): an earlier one answering later is dropped (Back before it came). */
  profileRead?: string;
  follow: ActionStatus;
  unfollow: ActionStatus;
}

const initialState: UserState = {
  profile: { data: null, loading: false, error: null },
  follow: idle(),
  unfollow: idle(),
};

/** The state of a profile page the server rendered (store/firstLoad.ts). */
export const showingProfile = (profile: Profile): UserState => ({
  ...initialState,
  profile: { data: profile, loading: false, error: null },
});

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
      if (!user) throw new Error(TEXTS.notLoggedIn);
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

/** The profile page shows its own load error; following and unfollowing toast. */
export const userToasts: ToastListener[] = [
  // Someone who approves followers gets a request (issue 70): the toast says so.
  ...thunkToasts(followUser, {
    success: (username, profile) =>
      profile.followRequestedByMe ? `Follow request sent to ${username}` : TEXTS.following(username),
  }),
  ...thunkToasts(unfollowUser, { success: TEXTS.unfollowed }),
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

export const { profileCleared } = userSlice.actions;
export default userSlice.reducer;

export const selectProfile = (state: RootState) => state.user.profile;
export const selectFollowState = (state: RootState) => state.user;
