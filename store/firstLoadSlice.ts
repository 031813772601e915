import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Reads the server already made for the first page of the visit (store/firstLoad.ts). A page
 * component takes its key once on mount instead of asking the API again; every later visit of
 * the page reads afresh, as before.
 */
export interface FirstLoadState {
  fresh: string[];
}

const initialState: FirstLoadState = { fresh: [] };

const firstLoadSlice = createSlice({
  name: 'firstLoad',
  initialState,
  reducers: {
    firstLoadTaken(state, action: PayloadAction<string>) {
      state.fresh = state.fresh.filter((key) => key !== action.payload);
    },
  },
});

export const { firstLoadTaken } = firstLoadSlice.actions;
export default firstLoadSlice.reducer;

/** The keys the page components take. */
export const firstLoadKey = {
  list: (sourceKey: string) => `list:${sourceKey}`,
  profile: (username: string) => `profile:${username.toLowerCase()}`,
  post: (id: string) => `post:${id}`,
};
