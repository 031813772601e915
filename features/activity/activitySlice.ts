import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AppNotification } from '../../lib/types';
import type { RootState } from '../../store/index';
import { createAppAsyncThunk } from '../../store/withTypes';
import { activityApi } from './activityApi';

/**
 * The unread count the bells show. The server renders none: it arrives with the stream (and with
 * the reads and marks below). No toasts: a failed read leaves the badge as it is.
 */
export interface ActivityState {
  unread: number;
}

const initialState: ActivityState = { unread: 0 };

/** The count the server holds now. */
export const fetchUnreadCount = createAppAsyncThunk('activity/fetchUnreadCount', () => activityApi.unread());

/** Marks read up to and including `upTo` (newest first); answers the count left. */
export const markNotificationsRead = createAppAsyncThunk('activity/markRead', (upTo: string) =>
  activityApi.markRead(upTo),
);

const activitySlice = createSlice({
  name: 'activity',
  initialState,
  reducers: {
    /** The count the stream read when it opened, or sent after the server removed unread ones. */
    unreadCounted(state, action: PayloadAction<number>) {
      state.unread = Math.max(0, action.payload);
    },
    /** A notification came in on the stream: one more unless it is already read (another tab). */
    notificationArrived(state, action: PayloadAction<AppNotification>) {
      if (!action.payload.read) state.unread += 1;
    },
    /** The list was shown: the badge falls at once, before the server answers. */
    notificationsShown(state) {
      state.unread = 0;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchUnreadCount.fulfilled, (state, action) => {
        state.unread = Math.max(0, action.payload);
      })
      .addCase(markNotificationsRead.fulfilled, (state, action) => {
        state.unread = Math.max(0, action.payload);
      });
  },
});

export const { unreadCounted, notificationArrived, notificationsShown } = activitySlice.actions;
export default activitySlice.reducer;

export const selectUnreadCount = (state: RootState) => state.activity.unread;
