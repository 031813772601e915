import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { TOAST_DEFAULT_MS } from '../../lib/limits';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: string;
  message: string;
  /** How long the toast stays, in milliseconds. */
  time: number;
  kind: ToastKind;
}

const toastsSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    toastAdded: {
      reducer(state, action: PayloadAction<Toast>) {
        state.push(action.payload);
      },
      prepare(message: string, kind: ToastKind = 'info', time: number = TOAST_DEFAULT_MS) {
        return { payload: { id: nanoid(), message, kind, time } };
      },
    },
    toastRemoved(state, action: PayloadAction<string>) {
      return state.filter((toast) => toast.id !== action.payload);
    },
  },
});

export const { toastAdded, toastRemoved } = toastsSlice.actions;
export default toastsSlice.reducer;

type Dispatch = (action: ReturnType<typeof toastAdded> | ReturnType<typeof toastRemoved>) => unknown;

/** Shows a toast and removes it once its time has passed. */
export const showToast =
  (message: string, kind: ToastKind = 'info', time: number = TOAST_DEFAULT_MS) =>
  (dispatch: Dispatch) => {
    const action = toastAdded(message, kind, time);
    dispatch(action);
    setTimeout(() => dispatch(toastRemoved(action.payload.id)), time);
    return action.payload.id;
  };

export const selectToasts = (state: { toasts: Toast[] }) => state.toasts;
