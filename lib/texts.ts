/** Fixed user-facing texts. The spec's strings are copied exactly (including its grammar and spacing). */

export const TEXTS = {
  notLoggedIn: 'User are not logged in',
  fileTooBig: 'File is too big',
  messageRequired: 'Please fill the message field',
  tagRequired: 'Please enter a tag ',
  uploadHint: 'Allowed Formats: JPEG, PNG. Max size: 4mb.',
  allowedFormats: 'Allowed Formats: JPEG, PNG',

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
  invalidPassword: 'Invalid password',
} as const;
