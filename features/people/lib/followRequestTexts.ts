/** The words of approve followers (issue 70), in one place for the pages and their tests. */
export const FOLLOW_REQUEST_TEXTS = {
  sent: (username: string) => `Follow request sent to ${username}`,
  withdrawn: (username: string) => `Follow request to ${username} withdrawn`,
  withdrawHint: 'Waiting for their approval. Press to withdraw the request.',
  approved: (username: string) => `${username} now follows you`,
  rejected: (username: string) => `Request from ${username} rejected`,
  removed: (username: string) => `${username} no longer follows you`,
  title: 'Follow requests',
  lead: 'People who asked to follow you. They see your posts once you approve.',
  none: 'No follow requests waiting.',
  setting: 'Approve followers',
  settingLead:
    'When on, a follow of you is a request: you approve or reject each one in Notifications. Turning it off approves the waiting ones.',
  removeConfirm: (username: string) =>
    `Remove ${username} from your followers? They are not blocked and are not told; they may follow you again.`,
} as const;
