import type { Palette } from './palette';

export const darkGray: Palette = {
  bg: '#1c1c21',
  surface: '#26262c',
  surfaceRaised: '#303038',
  border: '#44444e',
  text: '#f3f3f6',
  textMuted: '#b9b9c4',
  accent: '#8fb3ff',
  onAccent: '#0b1633',
  accentSoft: 'rgba(143, 179, 255, 0.16)',
  danger: '#ff9a9a',
  dangerSoft: 'rgba(255, 120, 120, 0.12)',
  success: '#7ee0a1',
  focus: '#c7d8ff',
  skeleton: '#34343c',
  overlay: 'rgba(8, 8, 12, 0.72)',
  navbar: 'rgba(28, 28, 33, 0.94)',
  navbarTranslucent: 'rgba(28, 28, 33, 0.75)',
};
