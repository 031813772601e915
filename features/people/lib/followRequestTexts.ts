/**
 * The approve-followers setting's words (issue 70), in English, for the settings page until its
 * texts move to its catalogue; the rest of the feature's words are in the `people` catalogue.
 */
export const FOLLOW_REQUEST_TEXTS = {
  title: 'Follow requests',
  setting: 'Approve followers',
  settingLead:
    'When on, a follow of you is a request: you approve or reject each one in Notifications. Turning it off approves the waiting ones.',
} as const;
