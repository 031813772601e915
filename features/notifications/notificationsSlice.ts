import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { TOAST_DEFAULT_MS } from '../../lib/limits';

export type NotificationKind = 'success' | 'error' | 'info';

export interface Notification {
  id: string;
  message: string;
  /** How long the toast stays, in milliseconds. */
  time: number;
  kind: NotificationKind;
}

const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: [] as Notification[],
  reducers: {
    notificationAdded: {
      reducer(state, action: PayloadAction<Notification>) {
        state.push(action.payload);
      },
      prepare(message: string, kind: NotificationKind = 'info', time: number = TOAST_DEFAULT_MS) {
        return { payload: { id: nanoid(), message, kind, time } };
      },
    },
    notificationRemoved(state, action: PayloadAction<string>) {
      return state.filter((n) => n.id !== action.payload);
    },
  },
});

export const { notificationAdded, notificationRemoved } = notificationsSlice.actions;
export default notificationsSlice.reducer;

type Dispatch = (action: ReturnType<typeof notificationAdded> | ReturnType<typeof notificationRemoved>) => unknown;

/** Shows a toast and removes it once its time has passed. */
export const notify =
  (message: string, kind: NotificationKind = 'info', time: number = TOAST_DEFAULT_MS) =>
  (dispatch: Dispatch) => {
    const action = notificationAdded(message, kind, time);
    dispatch(action);
    setTimeout(() => dispatch(notificationRemoved(action.payload.id)), time);
    return action.payload.id;
  };

export const selectNotifications = (state: { notifications: Notification[] }) => state.notifications;
