/** Toasts: the shell shows them; the features' toast rules (store/toasts.ts) raise them for thunks. */
export { Toasts } from './components/Toasts';
export { showToast, type ToastKind } from './state/toastsSlice';
