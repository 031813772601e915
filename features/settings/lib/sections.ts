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

export const SETTINGS_NAV: { id: string; label: string }[] = [
  { id: SETTINGS_SECTIONS.profile, label: 'Profile' },
  { id: SETTINGS_SECTIONS.account, label: 'Account' },
  { id: SETTINGS_SECTIONS.theme, label: 'Theme' },
  { id: SETTINGS_SECTIONS.media, label: 'Media' },
  { id: SETTINGS_SECTIONS.notifications, label: 'Notifications' },
  { id: SETTINGS_SECTIONS.privacy, label: 'Privacy' },
  { id: SETTINGS_SECTIONS.sessions, label: 'Devices' },
  { id: SETTINGS_SECTIONS.apps, label: 'Authorised apps' },
  { id: SETTINGS_SECTIONS.blocked, label: 'Blocked and muted' },
  { id: SETTINGS_SECTIONS.tags, label: 'Followed tags' },
  { id: SETTINGS_SECTIONS.twofactor, label: 'Two-factor sign-in' },
  { id: SETTINGS_SECTIONS.data, label: 'Your data' },
  { id: SETTINGS_SECTIONS.moving, label: 'Move in and out' },
];
