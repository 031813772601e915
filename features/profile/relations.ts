/**
 * Block, unblock, mute, unmute from a profile (issue 23). Loaded with the profile page only, not
 * with the store: the shared first load stays as it was (docs/frontend.md, budget).
 */
import { errorMessage } from '../../services/apiClient';
import { isSessionLost, sessionLost } from '../../store/sessionLost';
import { declareToasts } from '../../store/thunkToasts';
import { createAppAsyncThunk } from '../../store/withTypes';
import { fetchLoggedUser } from '../auth';
import { type RelationAction, usersApi } from './usersApi';
import { fetchProfile } from './userSlice';

const DONE: Record<RelationAction, (username: string) => string> = {
  block: (username) => `You blocked ${username}`,
  unblock: (username) => `You unblocked ${username}`,
  mute: (username) => `You muted ${username}`,
  unmute: (username) => `You unmuted ${username}`,
};

/** The profile on screen refreshes quietly; a block ends follows, so my own counts refresh too. */
export const changeRelation = createAppAsyncThunk(
  'user/changeRelation',
  async ({ username, action }: { username: string; action: RelationAction }, { dispatch, rejectWithValue }) => {
    try {
      const profile = await usersApi.relation(username, action);
      if (action === 'block') void dispatch(fetchLoggedUser());
      await dispatch(fetchProfile({ username, quiet: true }));
      return profile;
    } catch (error) {
      if (isSessionLost(error)) dispatch(sessionLost());
      return rejectWithValue(errorMessage(error));
    }
  },
);
declareToasts(changeRelation, { success: ({ action, username }) => DONE[action](username) });
