/**
 * Block, unblock, mute, unmute from a profile (issue 23). Loaded with the profile page only, not
 * with the store: the shared first load stays as it was (docs/frontend.md, budget).
 */
import { apiUrls } from '../../../lib/apiUrls';
import { textOf } from '../../../lib/i18n/appTexts';
import type { Profile } from '../../../lib/types';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { fetchLoggedUser } from '../../auth';
import { fetchProfile } from './userSlice';

export type RelationAction = 'block' | 'unblock' | 'mute' | 'unmute';

/** Not in `usersApi`: that module is in every page's first load (the store imports its slice). */
async function changeOn(username: string, action: RelationAction): Promise<Profile> {
  return (await apiClient.patch<{ user: Profile }>(`${apiUrls.user(username)}/${action}`)).data.user;
}

/** The profile on screen refreshes quietly; a block ends follows, so my own counts refresh too. */
export const changeRelation = createAppAsyncThunk(
  'user/changeRelation',
  async ({ username, action }: { username: string; action: RelationAction }, { dispatch, rejectWithValue }) => {
    try {
      const profile = await changeOn(username, action);
      if (action === 'block') void dispatch(fetchLoggedUser());
      await dispatch(fetchProfile({ username, quiet: true }));
      return profile;
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  },
);
/** Started by the profile header (`useToasts`), which alone loads this module. */
export const relationToasts: ToastListener[] = thunkToasts(changeRelation, {
  success: ({ action, username }) => textOf('profile.toasts.relation', { action, username }),
});
