/** The settings page's panels, and the theme the shell applies. */
export { AccountSettings } from './components/AccountSettings';
export { LazySecuritySettings } from './components/LazySecuritySettings';
export { PrivacySettings } from './components/PrivacySettings';
export { ProfileSettings } from './components/ProfileSettings';
export { ThemePicker } from './components/ThemePicker';
export { SensitiveMediaSetting } from './components/SensitiveMediaSetting';
export { SettingsLayout, SettingsNav } from './components/SettingsNav';
export { loadStoredTheme } from './state/themeSlice';
