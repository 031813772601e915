import type { Palette } from './palette';

export const navyBlue: Palette = {
  bg: '#0b1829',
  surface: '#112338',
  surfaceRaised: '#183049',
  border: '#2b4a6c',
  text: '#eef4fb',
  textMuted: '#aac0d8',
  accent: '#ffcb5c',
  onAccent: '#2a1d00',
  accentSoft: 'rgba(255, 203, 92, 0.16)',
  danger: '#ff9f9f',
  dangerSoft: 'rgba(255, 120, 120, 0.12)',
  success: '#7fe3b0',
  focus: '#ffe3a3',
  skeleton: '#1b3350',
  overlay: 'rgba(3, 10, 20, 0.75)',
  navbar: 'rgba(11, 24, 41, 0.94)',
  navbarTranslucent: 'rgba(11, 24, 41, 0.75)',
};
