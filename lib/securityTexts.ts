/**
 * Fixed texts of sessions, two-factor sign-in, account deletion and suspension (issues 22, 23). Apart from TEXTS so
 * that the shared first load, which carries TEXTS, does not carry these too.
 */
export const SECURITY_TEXTS = {
  twoFactorCodeRequired: 'Enter the code from your authenticator app or a recovery code',
  invalidTwoFactorCode: 'Invalid two-factor code',
  twoFactorAlreadyOn: 'Two-factor sign-in is already on',
  twoFactorOn: 'Two-factor sign-in is on',
  twoFactorOff: 'Two-factor sign-in is off',
  sessionSignedOut: 'That device has been signed out',
  otherSessionsSignedOut: 'Every other device has been signed out',
  appRevoked: 'That app can no longer use your account',
  usernameRetired: 'This username belonged to a deleted account and cannot be registered yet',
  accountDeleted: 'Your account has been deleted',
  accountSuspended: 'This account is suspended',
} as const;
