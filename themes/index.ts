import type { ThemeName } from '../lib/limits';
import { dark } from './dark';
import { darkGray } from './darkGray';
import { navyBlue } from './navyBlue';
import type { Palette } from './palette';

export type { Palette };
export const palettes: Record<ThemeName, Palette> = { darkGray, navyBlue, dark };

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** `--bg: #...; --text: ...` for one palette. */
export function paletteVariables(palette: Palette): string {
  return Object.entries(palette)
    .map(([name, value]) => `--${kebab(name)}:${value};`)
    .join('');
}

/**
 * The styled-components theme: colours are CSS variables, so switching themes never re-renders.
 * Being constant, components interpolate it directly (`${appTheme.color.text}`) rather than through
 * a `({ theme }) =>` function: a component whose styles hold no function is static, so
 * styled-components builds its class once instead of re-flattening and hashing on every render.
 */
export const appTheme = {
  color: Object.fromEntries(Object.keys(darkGray).map((name) => [name, `var(--${kebab(name)})`])) as Record<
    keyof Palette,
    string
  >,
  radius: { sm: '8px', md: '12px', lg: '18px', pill: '999px' },
  shadow: '0 10px 30px rgba(0, 0, 0, 0.35)',
};

export type AppTheme = typeof appTheme;
