/**
 * Every theme's colours for the server's own HTML that follows the person's chosen theme (the
 * offline shell): copies of themes/*.ts, as darkGray.ts is, since the server imports no client
 * code; tests/server/themeColours.test.ts holds each copy to its theme.
 */
import type { ThemeName } from '../../lib/limits';
import { DARK_GRAY } from './darkGray';

export type ServerColours = typeof DARK_GRAY;

export const THEME_COLOURS: Record<ThemeName, ServerColours> = {
  darkGray: DARK_GRAY,
  navyBlue: {
    bg: '#0b1829',
    surface: '#112338',
    surfaceRaised: '#183049',
    border: '#2b4a6c',
    text: '#eef4fb',
    textMuted: '#aac0d8',
    accent: '#ffcb5c',
    onAccent: '#2a1d00',
    focus: '#ffe3a3',
  },
  dark: {
    bg: '#000000',
    surface: '#111113',
    surfaceRaised: '#1c1c1f',
    border: '#333338',
    text: '#ffffff',
    textMuted: '#ababb3',
    accent: '#5ee0d2',
    onAccent: '#00211e',
    focus: '#a6fff5',
  },
};
