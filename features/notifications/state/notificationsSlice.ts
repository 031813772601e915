import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AppNotification } from '../../../lib/types';
import type { RootState } from '../../../store/index';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { notificationsApi } from './notificationsApi';

/**
 * The unread count the bells show. A page the server renders starts with it (store/firstLoad.ts);
 * then the stream keeps it (with the reads and marks below). No toasts: a failed read leaves the
 * badge as it is.
 */
export interface NotificationsState {
  unread: number;
}

const initialState: NotificationsState = { unread: 0 };

/** The count the server holds now. */
export const fetchUnreadCount = createAppAsyncThunk('notifications/fetchUnreadCount', () => notificationsApi.unread());

/** Marks read up to and including `upTo` (newest first); answers the count left. */
export const markNotificationsRead = createAppAsyncThunk('notifications/markRead', (upTo: string) =>
  notificationsApi.markRead(upTo),
);

const notificationsSlice = createSlice({
  name: 'notifications',
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

export const { unreadCounted, notificationArrived, notificationsShown } = notificationsSlice.actions;
export default notificationsSlice.reducer;

export const selectUnreadCount = (state: RootState) => state.notifications.unread;
