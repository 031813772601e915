import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { THEMES, type ThemeName } from '../../../lib/limits';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useHydrated } from '../../../hooks/useHydrated';
import { selectTheme, setTheme } from '../state/themeSlice';
import { appTheme, palettes } from '../../../themes';
import { Panel } from '../../../components/ui/Panel';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Options = styled.div`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(3, 1fr);
  border: none;
  margin: 0;
  padding: 0;
`;

const Option = styled.label`
  position: relative;
  display: grid;
  gap: 8px;
  padding: 10px;
  border-radius: ${appTheme.radius.md};
  border: 2px solid ${appTheme.color.border};
  cursor: pointer;
  font-weight: 600;
  font-size: 14px;
  &:has(input:checked) { border-color: ${appTheme.color.accent}; }
  &:has(input:focus-visible) { outline: 2px solid ${appTheme.color.focus}; outline-offset: 2px; }
  input { position: absolute; opacity: 0; width: 1px; height: 1px; }
`;

const Swatch = styled.span`
  display: flex;
  height: 54px;
  border-radius: 8px;
  overflow: hidden;
  span { flex: 1; }
`;

export function ThemePicker() {
  const dispatch = useAppDispatch();
  const theme = useAppSelector(selectTheme);
  const t = useTranslations('settings');
  const labels: Record<ThemeName, string> = {
    darkGray: t('theme.darkGray'),
    navyBlue: t('theme.navyBlue'),
    dark: t('theme.dark'),
  };
  // The theme lives in this browser: the server's HTML shows none chosen, and so must hydration.
  const current = useHydrated() ? theme : null;
  return (
    <Panel id={SETTINGS_SECTIONS.theme} aria-labelledby="theme-settings">
      <h2 id="theme-settings">{t('theme.heading')}</h2>
      <p className="lead">{t('theme.lead')}</p>
      <Options role="radiogroup" aria-labelledby="theme-settings">
        {THEMES.map((name) => (
          <Option key={name}>
            <input
              type="radio"
              name="theme"
              value={name}
              checked={current === name}
              onChange={() => dispatch(setTheme(name))}
            />
            <Swatch aria-hidden="true">
              <span style={{ background: palettes[name].bg }} />
              <span style={{ background: palettes[name].surfaceRaised }} />
              <span style={{ background: palettes[name].accent }} />
            </Swatch>
            {labels[name]}
          </Option>
        ))}
      </Options>
    </Panel>
  );
}
