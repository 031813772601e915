import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AppNotification } from '../../lib/types';
import type { RootState } from '../../store/index';

/**
 * The unread count the bells show. Only the count lives in the store (it is part of every page's
 * first load); the stream, the lists and their texts load with the navbar and the page.
 */
export interface ActivityState {
  unread: number;
}

const initialState: ActivityState = { unread: 0 };

const activitySlice = createSlice({
  name: 'activity',
  initialState,
  reducers: {
    unreadCounted(state, action: PayloadAction<number>) {
      state.unread = action.payload;
    },
    notificationArrived(state, action: PayloadAction<AppNotification>) {
      if (!action.payload.read) state.unread += 1;
    },
    notificationsRead(state) {
      state.unread = 0;
    },
  },
});

export const { unreadCounted, notificationArrived, notificationsRead } = activitySlice.actions;
export const selectUnread = (state: RootState) => state.activity.unread;
export default activitySlice.reducer;
