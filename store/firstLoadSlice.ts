import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Reads the server already made for the first page of the visit (store/serverData.ts). A page
 * component takes its key once on mount instead of asking the API again; every later visit of
 * the page reads afresh, as before.
 */
export interface ServerDataState {
  fresh: string[];
}

const initialState: ServerDataState = { fresh: [] };

const serverDataSlice = createSlice({
  name: 'serverData',
  initialState,
  reducers: {
    serverDataReceived(state, action: PayloadAction<string>) {
      if (!state.fresh.includes(action.payload)) state.fresh.push(action.payload);
    },
    serverDataTaken(state, action: PayloadAction<string>) {
      state.fresh = state.fresh.filter((key) => key !== action.payload);
    },
  },
});

export const { serverDataReceived, serverDataTaken } = serverDataSlice.actions;
export default serverDataSlice.reducer;

/** The keys the page components take. */
export const serverDataKey = {
  list: (sourceKey: string) => `list:${sourceKey}`,
  profile: (username: string) => `profile:${username.toLowerCase()}`,
  post: (id: string) => `post:${id}`,
};
