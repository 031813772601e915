import type { Palette } from './palette';

export const dark: Palette = {
  bg: '#000000',
  surface: '#111113',
  surfaceRaised: '#1c1c1f',
  border: '#333338',
  text: '#ffffff',
  textMuted: '#ababb3',
  accent: '#5ee0d2',
  onAccent: '#00211e',
  accentSoft: 'rgba(94, 224, 210, 0.15)',
  danger: '#ff9a9a',
  dangerSoft: 'rgba(255, 120, 120, 0.12)',
  success: '#7ee0a1',
  focus: '#a6fff5',
  skeleton: '#1f1f23',
  overlay: 'rgba(0, 0, 0, 0.8)',
  navbar: 'rgba(0, 0, 0, 0.92)',
  navbarTranslucent: 'rgba(0, 0, 0, 0.75)',
};
