import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { setAlwaysShowSensitive, useAlwaysShowSensitive } from '../../../hooks/useSensitiveMedia';
import { Panel } from '../../../components/ui/Panel';
import { appTheme } from '../../../themes';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Switch = styled.label`
  display: flex;
  align-items: center;
  gap: 10px;
  font-weight: 600;
  cursor: pointer;
  input { width: 20px; height: 20px; accent-color: ${appTheme.color.accent}; }
`;

/** "Always show sensitive media": kept in this browser, like the theme. */
export function SensitiveMediaSetting() {
  const on = useAlwaysShowSensitive();
  const t = useTranslations('settings');
  return (
    <Panel id={SETTINGS_SECTIONS.media} aria-labelledby="media-settings">
      <h2 id="media-settings">{t('media.heading')}</h2>
      <p className="lead">{t('media.lead')}</p>
      <Switch>
        <input type="checkbox" role="switch" checked={on} onChange={(e) => setAlwaysShowSensitive(e.target.checked)} />
        {t('media.alwaysShow')}
      </Switch>
    </Panel>
  );
}
