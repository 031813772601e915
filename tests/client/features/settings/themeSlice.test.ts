import { DEFAULT_THEME, THEME_STORAGE_KEY } from '../../../../lib/limits';
import { makeStore } from '../../../../store';
import { loadStoredTheme, setTheme } from '../../../../features/settings/state/themeSlice';

describe('theme', () => {
  it('defaults to darkGray', () => {
    expect(makeStore().getState().theme.value).toBe(DEFAULT_THEME);
    expect(DEFAULT_THEME).toBe('darkGray');
  });

  it('keeps the picked theme in localStorage under "theme" and applies it to the page', () => {
    const store = makeStore();
    store.dispatch(setTheme('navyBlue'));
    expect(store.getState().theme.value).toBe('navyBlue');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('navyBlue');
    expect(document.documentElement.dataset.theme).toBe('navyBlue');
  });

  it('restores the stored theme on a new visit', () => {
    window.localStorage.setItem('theme', 'dark');
    const store = makeStore();
    store.dispatch(loadStoredTheme());
    expect(store.getState().theme.value).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('falls back to darkGray when the stored value is not a theme', () => {
    window.localStorage.setItem('theme', 'neon');
    const store = makeStore();
    store.dispatch(loadStoredTheme());
    expect(store.getState().theme.value).toBe('darkGray');
  });
});
