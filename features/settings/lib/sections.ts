/**
 * The settings page's sections: their ids are the page's deep links (`/settings#data`), and the
 * section list (SettingsNav) links to them, in the page's order.
 */
export const SETTINGS_SECTIONS = {
  profile: 'profile',
  account: 'account',
  theme: 'theme',
  media: 'media',
  notifications: 'notifications',
  privacy: 'privacy',
  sessions: 'sessions',
  apps: 'apps',
  blocked: 'blocked',
  tags: 'tags',
  twofactor: 'two-factor',
  data: 'data',
  moving: 'moving',
} as const;

/** The section list's order: each section's id, its label the `settings.nav` message of the same key. */
export const SETTINGS_NAV = [
  'profile',
  'account',
  'theme',
  'media',
  'notifications',
  'privacy',
  'sessions',
  'apps',
  'blocked',
  'tags',
  'twofactor',
  'data',
  'moving',
] as const satisfies readonly (keyof typeof SETTINGS_SECTIONS)[];
