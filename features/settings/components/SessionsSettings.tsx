import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { deviceLabel } from '../../../lib/userAgent';
import { useAppDispatch } from '../../../store/hooks';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import type { SessionInfo } from '../../../lib/types';
import { fetchSessions, revokeOtherSessions, revokeSession } from '../state/securityThunks';
import { SettingsItem, SettingsList } from './SettingsList';
import { SETTINGS_SECTIONS } from '../lib/sections';

const List = styled(SettingsList)`
  margin-bottom: 16px;
`;

const Item = styled(SettingsItem)`
  flex-wrap: wrap;
  padding: 12px 14px;
  strong { display: block; }
  small { color: ${appTheme.color.textMuted}; }
`;

const Badge = styled.span`
  margin-inline-start: 8px;
  padding: 2px 8px;
  border-radius: ${appTheme.radius.pill};
  font-size: 12px;
  font-weight: 600;
  background: ${appTheme.color.accent};
  color: ${appTheme.color.onAccent};
`;

/** The devices signed in to this account, each with "Sign out", and "Sign out everywhere else". */
export function SessionsSettings() {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    void dispatch(fetchSessions()).then((result) => {
      if (fetchSessions.fulfilled.match(result)) setSessions(result.payload);
    });
  }, [dispatch]);

  async function signOut(id: string) {
    setBusy(id);
    const result = await dispatch(revokeSession(id));
    setBusy(null);
    if (revokeSession.fulfilled.match(result)) setSessions((list) => list?.filter((s) => s.id !== id) ?? null);
  }

  async function signOutOthers() {
    setBusy('others');
    const result = await dispatch(revokeOtherSessions());
    setBusy(null);
    if (revokeOtherSessions.fulfilled.match(result)) setSessions((list) => list?.filter((s) => s.current) ?? null);
  }

  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <Panel id={SETTINGS_SECTIONS.sessions} aria-labelledby="sessions-settings">
      <h2 id="sessions-settings">{t('sessions.heading')}</h2>
      <p className="lead">{t('sessions.lead')}</p>
      {sessions === null ? (
        <Spinner />
      ) : (
        <>
          <List>
            {sessions.map((session) => {
              const label = deviceLabel(session.userAgent);
              return (
                <Item key={session.id}>
                  <div>
                    <strong>
                      {label}
                      {session.current && <Badge>{t('sessions.thisDevice')}</Badge>}
                    </strong>
                    <small>
                      {t.rich('sessions.used', {
                        lastUsed: () => <RelativeTime iso={session.lastUsedAt} />,
                        signedIn: () => <RelativeTime iso={session.createdAt} />,
                      })}
                    </small>
                  </div>
                  {!session.current && (
                    <Button
                      $variant="secondary"
                      $size="sm"
                      aria-label={t('sessions.signOutOf', { device: label })}
                      disabled={busy !== null}
                      aria-busy={busy === session.id}
                      onClick={() => void signOut(session.id)}
                    >
                      {t('sessions.signOut')}
                    </Button>
                  )}
                </Item>
              );
            })}
          </List>
          <Button
            $variant="secondary"
            disabled={others === 0 || busy !== null}
            aria-busy={busy === 'others'}
            onClick={() => void signOutOthers()}
          >
            {busy === 'others' && <Spinner />} {t('sessions.signOutOthers')}
          </Button>
        </>
      )}
    </Panel>
  );
}
