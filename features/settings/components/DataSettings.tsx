import { useRouter } from 'next/router';
import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch } from '../../../store/hooks';
import { fetchLoggedUser, userCleared } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { Panel, Stack } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { appTheme } from '../../../themes';
import { securityApi } from '../state/securityApi';
import { deleteAccount } from '../state/securityThunks';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Problem = styled.p`
  margin: 8px 0 0;
  color: ${appTheme.color.danger};
  font-size: 14px;
`;

const Danger = styled.div`
  display: grid;
  gap: 16px;
  padding-top: 20px;
  margin-top: 4px;
  border-top: 1px solid ${appTheme.color.border};
  h3 { font-size: 16px; margin: 0; color: ${appTheme.color.danger}; }
  p { margin: 0; color: ${appTheme.color.textMuted}; font-size: 14px; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
`;

interface Props {
  username: string;
  twoFactorOn: boolean;
}

/** "Download your data" (a zip of everything) and "Delete account", confirmed by typing the username. */
export function DataSettings({ username, twoFactorOn }: Props) {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const router = useRouter();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const confirmed = typed.trim() === username;
  const [exporting, setExporting] = useState(false);
  const [exportProblem, setExportProblem] = useState<string | null>(null);

  /** Saves the zip under the server's name once it has all arrived; a refusal shows the server's message. */
  async function download() {
    setExporting(true);
    setExportProblem(null);
    try {
      const { zip, filename } = await securityApi.exportData();
      const url = URL.createObjectURL(zip);
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      link.click();
      // The browser has taken the file by then; the URL only holds the zip's memory.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      setExportProblem((error as Error).message);
    } finally {
      setExporting(false);
    }
  }

  async function remove(event: FormEvent) {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    const result = await dispatch(deleteAccount({ password, ...(twoFactorOn ? { code: code.trim() } : {}) }));
    setBusy(false);
    if (!deleteAccount.fulfilled.match(result)) return;
    dispatch(userCleared());
    await router.replace('/');
    // The server cleared the cookies; the lookup settles the session as signed out.
    void dispatch(fetchLoggedUser());
  }

  return (
    <Panel id={SETTINGS_SECTIONS.data} aria-labelledby="data-settings">
      <h2 id="data-settings">{t('data.heading')}</h2>
      <p className="lead">{t('data.lead')}</p>
      <Stack>
        <div>
          <Button $variant="secondary" onClick={() => void download()} disabled={exporting} aria-busy={exporting}>
            {exporting && <Spinner />} {t('data.download')}
          </Button>
          {exportProblem && <Problem role="alert">{exportProblem}</Problem>}
        </div>
        <Danger>
          <h3 id="delete-account">{t('data.deleteHeading')}</h3>
          <p>{t('data.deleteLead')}</p>
          <form aria-labelledby="delete-account" onSubmit={(event) => void remove(event)} noValidate>
            <Stack>
              <TextField
                label={t('data.password')}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              {twoFactorOn && (
                <TextField
                  label={t('data.code')}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              )}
              <TextField
                label={t('data.confirm', { username })}
                autoComplete="off"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
              <Actions>
                <Button type="submit" $variant="danger" disabled={!confirmed || busy} aria-busy={busy}>
                  {busy && <Spinner />} {t('data.delete')}
                </Button>
              </Actions>
            </Stack>
          </form>
        </Danger>
      </Stack>
    </Panel>
  );
}
