/** Signing in, signing up and the session: the signed-in user and their account changes. */
import { lazy } from 'react';

export { dropSessionHint, hasSessionHint, SESSION_ENDED_NOTICE } from './state/authApi';
export {
  fetchLoggedUser,
  logout,
  selectAuth,
  selectSession,
  selectUser,
  updateAccount,
  updateProfile,
  userCleared,
  type SessionStatus,
} from './state/authSlice';
export { LoginForm } from './components/LoginForm';
export { SignupForm } from './components/SignupForm';
export { ResetPasswordForm } from './components/ResetPasswordForm';
export { VerifyEmailCard } from './components/VerifyEmailCard';
export { resendVerification } from './state/emailLinks';

/** Shown to a user whose email is not verified; its code loads only for them (render it in Suspense). */
export const VerifyEmailBanner = lazy(() => import('./components/VerifyEmailBanner'));
