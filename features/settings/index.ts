/** The settings page's panels, and the theme the shell applies. */
export { AccountSettings } from './AccountSettings';
export { LazySecuritySettings } from './LazySecuritySettings';
export { ProfileSettings } from './ProfileSettings';
export { ThemePicker } from './ThemePicker';
export { SensitiveMediaSetting } from './SensitiveMediaSetting';
export { SettingsLayout, SettingsNav } from './SettingsNav';
export { loadStoredTheme } from './themeSlice';
