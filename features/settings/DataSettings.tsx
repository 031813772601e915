import { useRouter } from 'next/router';
import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { useAppDispatch } from '../../store/hooks';
import { fetchLoggedUser, userCleared } from '../auth';
import { Button } from '../../components/ui/Button';
import { Panel, Stack } from '../../components/ui/Panel';
import { Spinner } from '../../components/ui/Spinner';
import { TextField } from '../../components/ui/TextField';
import { appTheme } from '../../themes';
import { EXPORT_URL } from './securityApi';
import { deleteAccount } from './securityThunks';

const Download = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 42px;
  padding: 0 18px;
  border-radius: ${appTheme.radius.pill};
  border: 1px solid ${appTheme.color.border};
  color: ${appTheme.color.text};
  font-weight: 600;
  text-decoration: none;
  &:focus-visible { outline: 2px solid ${appTheme.color.focus}; outline-offset: 2px; }
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
  const router = useRouter();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const confirmed = typed.trim() === username;

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
    <Panel aria-labelledby="data-settings">
      <h2 id="data-settings">Your data</h2>
      <p className="lead">Your account, posts, comments, reactions, follows and images, as one zip file.</p>
      <Stack>
        <div>
          <Download href={EXPORT_URL} download>
            Download your data
          </Download>
        </div>
        <Danger>
          <h3 id="delete-account">Delete account</h3>
          <p>
            This removes your account, posts, comments, reactions, follows and images for good. Your username cannot be
            registered again for 30 days.
          </p>
          <form aria-labelledby="delete-account" onSubmit={(event) => void remove(event)} noValidate>
            <Stack>
              <TextField
                label="Your password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              {twoFactorOn && (
                <TextField
                  label="Two-factor code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              )}
              <TextField
                label={`Type ${username} to confirm`}
                autoComplete="off"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
              />
              <Actions>
                <Button type="submit" $variant="danger" disabled={!confirmed || busy} aria-busy={busy}>
                  {busy && <Spinner />} Delete account
                </Button>
              </Actions>
            </Stack>
          </form>
        </Danger>
      </Stack>
    </Panel>
  );
}
