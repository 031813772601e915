import type { Profile } from '../../../lib/types';
import { idle, type ActionStatus } from '../../../store/status';

/**
 * The profile slice's state, apart from the slice (userSlice.ts): a profile page the server rendered
 * builds it in the shared store code (store/firstLoad.ts) without the slice's code in every page.
 */
export interface UserState {
  profile: { data: Profile | null; loading: boolean; error: string | null };
  /** The last profile read asked (its request id): an earlier one answering later is dropped (Back before it came). */
  profileRead?: string;
  follow: ActionStatus;
  unfollow: ActionStatus;
}

export const initialState: UserState = {
  profile: { data: null, loading: false, error: null },
  follow: idle(),
  unfollow: idle(),
};

/** The state of a profile page the server rendered (store/firstLoad.ts). */
export const showingProfile = (profile: Profile): UserState => ({
  ...initialState,
  profile: { data: profile, loading: false, error: null },
});
