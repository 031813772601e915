/** Signing in, signing up and the session: the signed-in user and their account changes. */
import { lazy } from 'react';

export { dropSessionHint, hasSessionHint, SESSION_ENDED_NOTICE } from './authApi';
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
} from './authSlice';
export { LoginForm } from './LoginForm';
export { SignupForm } from './SignupForm';
export { ResetPasswordForm } from './ResetPasswordForm';
export { VerifyEmailCard } from './VerifyEmailCard';
export { resendVerification } from './emailLinks';

/** Shown to a user whose email is not verified; its code loads only for them (render it in Suspense). */
export const VerifyEmailBanner = lazy(() => import('./VerifyEmailBanner'));
