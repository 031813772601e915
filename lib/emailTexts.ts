/**
 * Fixed texts of password reset and email links (issue 22). Apart from TEXTS so that the shared
 * first load, which carries TEXTS, does not carry these too: only their pages and the banner do.
 */
export const EMAIL_TEXTS = {
  invalidLink: 'Invalid or expired link',
  resetLinkSent: 'If an account uses this address, a link to reset its password is on its way. It works for 1 hour.',
  passwordReset: 'Your password has been changed: sign in with it',
  emailVerified: 'Your email address is verified',
  emailChanged: 'Your email address has been changed',
  verificationSent: 'A new link is on its way',
  alreadyVerified: 'Your email address is already verified',
} as const;
