import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch } from '../../../store/hooks';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import type { AuthorizedApp } from '../../../lib/types';
import { fetchApps, revokeApp } from '../state/securityThunks';
import { SettingsItem, SettingsList } from './SettingsList';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Item = styled(SettingsItem)`
  flex-wrap: wrap;
  padding: 12px 14px;
  strong { display: block; }
  small { color: ${appTheme.color.textMuted}; }
`;

/** The apps (Mastodon clients) this person let use their account, each with "Revoke". */
export function AuthorizedAppsSettings() {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const [apps, setApps] = useState<AuthorizedApp[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchApps()).then((result) => {
      if (fetchApps.fulfilled.match(result)) setApps(result.payload);
    });
  }, [dispatch]);

  async function revoke(id: string) {
    setBusy(id);
    const result = await dispatch(revokeApp(id));
    setBusy(null);
    if (revokeApp.fulfilled.match(result)) setApps((list) => list?.filter((a) => a.id !== id) ?? null);
  }

  return (
    <Panel id={SETTINGS_SECTIONS.apps} aria-labelledby="apps-settings">
      <h2 id="apps-settings">{t('apps.heading')}</h2>
      <p className="lead">{t('apps.lead')}</p>
      {apps === null ? (
        <Spinner />
      ) : apps.length === 0 ? (
        <p>{t('apps.empty')}</p>
      ) : (
        <SettingsList>
          {apps.map((app) => (
            <Item key={app.id}>
              <div>
                <strong>{app.name}</strong>
                <small>
                  {t.rich('apps.granted', {
                    scopes: app.scopes.join(', '),
                    authorized: () => <RelativeTime iso={app.authorizedAt} />,
                  })}
                </small>
              </div>
              <Button
                $variant="secondary"
                $size="sm"
                aria-label={t('apps.revokeOf', { app: app.name })}
                disabled={busy !== null}
                aria-busy={busy === app.id}
                onClick={() => void revoke(app.id)}
              >
                {t('apps.revoke')}
              </Button>
            </Item>
          ))}
        </SettingsList>
      )}
    </Panel>
  );
}
