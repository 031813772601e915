import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_THEME, THEME_STORAGE_KEY, THEMES, type ThemeName } from '../../../lib/limits';
import type { RootState } from '../../../store/index';

export const isThemeName = (value: unknown): value is ThemeName =>
  typeof value === 'string' && (THEMES as readonly string[]).includes(value);

export function readStoredTheme(): ThemeName {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeName(stored) ? stored : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

const themeSlice = createSlice({
  name: 'theme',
  initialState: { value: DEFAULT_THEME as ThemeName },
  reducers: {
    themeChanged(state, action: PayloadAction<ThemeName>) {
      state.value = action.payload;
    },
  },
});

export const { themeChanged } = themeSlice.actions;
export default themeSlice.reducer;

/** Picks a theme: kept in the browser and applied to the page at once. */
export const setTheme = (theme: ThemeName) => (dispatch: (action: ReturnType<typeof themeChanged>) => unknown) => {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage can be unavailable (private mode); the theme still applies for this visit.
  }
  document.documentElement.dataset.theme = theme;
  dispatch(themeChanged(theme));
};

/** Syncs the store with the theme the inline script applied before first paint. */
export const loadStoredTheme = () => (dispatch: (action: ReturnType<typeof themeChanged>) => unknown) => {
  const theme = readStoredTheme();
  document.documentElement.dataset.theme = theme;
  dispatch(themeChanged(theme));
};

export const selectTheme = (state: RootState) => state.theme.value;
