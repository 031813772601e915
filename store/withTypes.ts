import { createAsyncThunk } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from './index';

/** Thunks reject with the message to show (the server's, or a fixed text of the spec). */
export const createAppAsyncThunk = createAsyncThunk.withTypes<{
  state: RootState;
  dispatch: AppDispatch;
  rejectValue: string;
}>();
