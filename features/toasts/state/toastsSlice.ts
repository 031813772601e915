import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { TOAST_DEFAULT_MS } from '../../../lib/limits';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: string;
  message: string;
  /** How long the toast stays, in milliseconds. */
  time: number;
  kind: ToastKind;
  /** What raised it, when something may take it back ('auth': a sign-in or sign-up refusal). */
  group?: string;
}

const toastsSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    toastAdded: {
      reducer(state, action: PayloadAction<Toast>) {
        state.push(action.payload);
      },
      prepare(message: string, kind: ToastKind = 'info', time: number = TOAST_DEFAULT_MS, group?: string) {
        return { payload: { id: nanoid(), message, kind, time, ...(group ? { group } : {}) } };
      },
    },
    toastRemoved(state, action: PayloadAction<string>) {
      return state.filter((toast) => toast.id !== action.payload);
    },
    /** A group's toasts go: a new try, or its success, makes them stale (issue 68, item 8). */
    toastGroupCleared(state, action: PayloadAction<string>) {
      return state.filter((toast) => toast.group !== action.payload);
    },
  },
});

export const { toastAdded, toastRemoved, toastGroupCleared } = toastsSlice.actions;
export default toastsSlice.reducer;

type Dispatch = (action: ReturnType<typeof toastAdded> | ReturnType<typeof toastRemoved>) => unknown;

/** Shows a toast and removes it once its time has passed. */
export const showToast =
  (message: string, kind: ToastKind = 'info', time: number = TOAST_DEFAULT_MS, group?: string) =>
  (dispatch: Dispatch) => {
    const action = toastAdded(message, kind, time, group);
    dispatch(action);
    setTimeout(() => dispatch(toastRemoved(action.payload.id)), time);
    return action.payload.id;
  };

export const selectToasts = (state: { toasts: Toast[] }) => state.toasts;
