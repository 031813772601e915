/**
 * The theme a person chose, applied before the body is parsed (kept in localStorage by Settings):
 * the pages' first script (pages/_document.tsx) and the offline shell's (server/pwa/offlineShell.ts)
 * both set `<html data-theme>` with it, so neither flashes the default theme.
 */
import { DEFAULT_THEME, THEME_STORAGE_KEY, THEMES } from './limits';

export const applyStoredThemeScript = `(function(){var t;try{t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})}catch(e){}if(${JSON.stringify(THEMES)}.indexOf(t)<0)t=${JSON.stringify(DEFAULT_THEME)};document.documentElement.setAttribute('data-theme',t)})();`;
