/** Toasts: the shell shows them; store/thunkToasts.ts raises them for thunks. */
export { Toasts } from './Toasts';
export { notify, type NotificationKind } from './notificationsSlice';
