/** Fixed user-facing texts. The spec's strings are copied exactly (including its grammar and spacing). */

export const TEXTS = {
  notLoggedIn: 'User are not logged in',
  fileTooBig: 'File is too big',
  messageRequired: 'Please fill the message field',
  tagRequired: 'Please enter a tag ',
  uploadHint: 'Allowed Formats: JPEG, PNG. Max size: 4mb.',
  allowedFormats: 'Allowed Formats: JPEG, PNG',
  corruptImage: 'The image is corrupt or cannot be read',
  tooManyPixels: 'The image is too large: at most 50 megapixels',
  tooWide: 'The image is too large: at most 16000 pixels on each side, fewer across with transparency or 16-bit colour',
  tooThin: 'The image is too narrow: its long side may be at most 20 times its short side',

  userUpdated: 'User has been updated',
  postEdited: 'Post has been edited',
  postDeleted: 'Post has been deleted',
  liked: 'Liked',
  disliked: 'Disliked',
  commentAdded: 'Comment added',
  likedComment: 'Liked comment',
  dislikedComment: 'Disliked',
  following: (username: string) => `You are following ${username}`,
  unfollowed: (username: string) => `${username} is no longer followed`,

  accountCreated: 'Your account has been created: sign in to start',

  invalidCredentials: 'Invalid email or password',
  accountSuspended: 'This account is suspended',
  invalidPassword: 'Invalid password',

  /** Password reset and email links (issue 22). */
  invalidLink: 'Invalid or expired link',
  resetLinkSent: 'If an account uses this address, a link to reset its password is on its way. It works for 1 hour.',
  passwordReset: 'Your password has been changed: sign in with it',
  emailVerified: 'Your email address is verified',
  emailChanged: 'Your email address has been changed',
  verificationSent: 'A new link is on its way',
  alreadyVerified: 'Your email address is already verified',
} as const;
