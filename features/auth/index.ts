/** Signing in, signing up and the session: the signed-in user and their account changes. */
export { hasSessionHint } from './authApi';
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
