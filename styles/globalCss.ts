import { DEFAULT_THEME, NAVBAR_HEIGHT_LARGE_PX, NAVBAR_HEIGHT_PX, THEMES } from '../lib/limits';
import { paletteVariables, palettes } from '../themes';
import { media } from './breakpoints';

/** Out of sight, still read by screen readers (and still a link's name). */
const VISUALLY_HIDDEN = `position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0;`;

const themeRules = THEMES.map((name) => `html[data-theme='${name}']{${paletteVariables(palettes[name])}}`).join('\n');

/**
 * The page-wide rules: the palettes as CSS variables (one per theme, picked by `data-theme` on
 * <html>), the reset and a few utility classes. Plain CSS that pages/_document.tsx writes into the
 * head, not a styled-components global style: the browser has it before any script runs, and the
 * client never compiles it with stylis nor inserts it again while hydrating (docs/benchmarks.md,
 * "The page-wide CSS and the post page's boundary").
 */
export const globalCss = `
  :root { ${paletteVariables(palettes[DEFAULT_THEME])} --navbar-height: ${NAVBAR_HEIGHT_PX}px; color-scheme: dark; }
  ${media.lg} { :root { --navbar-height: ${NAVBAR_HEIGHT_LARGE_PX}px; } }
  ${themeRules}
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    min-height: 100vh;
    background: var(--bg);
    color: var(--text);
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    font-size: 15px;
    line-height: 1.5;
    -webkit-font-smoothing: antialiased;
  }
  a { color: var(--accent); }
  img { display: block; max-width: 100%; }
  button, input, textarea, select { font: inherit; color: inherit; }
  h1, h2, h3 { line-height: 1.2; margin: 0; }
  :focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
  html[data-verify-hidden] [data-verify-banner] { display: none; }
  .visually-hidden { ${VISUALLY_HIDDEN} }
  @media (max-width: 419px) { .visually-hidden-narrow { ${VISUALLY_HIDDEN} } }
  .skip-link {
    position: fixed; inset-inline-start: 12px; top: -60px; z-index: 300; padding: 8px 14px; border-radius: 8px;
    background: var(--accent); color: var(--on-accent); font-weight: 600; text-decoration: none;
  }
  .skip-link:focus-visible { top: 8px; }
  main:focus { outline: none; }
  html[dir='rtl'] svg[data-directional] { transform: scaleX(-1); }
  @media (prefers-reduced-motion: reduce) {
    *, *::before, *::after { animation-duration: 0.01ms !important; transition-duration: 0.01ms !important; }
  }
`
  .replace(/\s+/g, ' ')
  .trim();
