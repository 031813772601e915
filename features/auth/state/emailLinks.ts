/**
 * Thunks of the password reset and the email links. They keep no state in the store (each form
 * holds its own), so they load with the pages that use them, not with every page.
 */
import { TOAST_AUTH_ERROR_MS } from '../../../lib/limits';
import { textOf } from '../../../lib/i18n/appTexts';
import { errorMessage } from '../../../services/apiClient';
import { thunkToasts, type ToastListener } from '../../../store/toasts';
import { createAppAsyncThunk } from '../../../store/withTypes';
import { emailLinksApi } from './emailLinksApi';

/** Rejects with the server's message, as every thunk does. */
function callApi<Arg, Result>(type: string, call: (arg: Arg) => Promise<Result>) {
  return createAppAsyncThunk(type, async (arg: Arg, { rejectWithValue }) => {
    try {
      return await call(arg);
    } catch (error) {
      return rejectWithValue(errorMessage(error));
    }
  });
}

/** The form says what happens next in place; an error (a 429) stays as long as sign-in errors. */
export const requestPasswordReset = callApi('auth/requestPasswordReset', emailLinksApi.forgotPassword);

export const resetPassword = callApi('auth/resetPassword', (change: { token: string; password: string }) =>
  emailLinksApi.resetPassword(change.token, change.password),
);

/** The page shows the outcome itself. */
export const verifyEmail = callApi('auth/verifyEmail', emailLinksApi.verifyEmail);

export const resendVerification = callApi<void, void>('auth/resendVerification', emailLinksApi.resendVerification);

/**
 * Their toasts, started by the forms and the banner that use them (`useToasts`). The verify page
 * shows its outcome itself: no toast.
 */
export const emailLinkToasts: ToastListener[] = [
  ...thunkToasts(requestPasswordReset, { error: { time: TOAST_AUTH_ERROR_MS } }),
  ...thunkToasts(resetPassword, {
    success: () => textOf('auth.toasts.passwordReset'),
    error: { time: TOAST_AUTH_ERROR_MS },
  }),
  ...thunkToasts(resendVerification, { success: () => textOf('auth.toasts.verificationSent') }),
];
