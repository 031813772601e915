/**
 * "Approve followers" (issue 70): when on, a follow of the user is a request they answer on the
 * notifications page. Separate from who may see a post. Saved at once, as the switch moves.
 */
import { useState } from 'react';
import styled from 'styled-components';
import { AppLink } from '../../../components/ui/AppLink';
import { Panel } from '../../../components/ui/Panel';
import { links } from '../../../lib/pages';
import type { User } from '../../../lib/types';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { fetchLoggedUser } from '../../auth';
import { FOLLOW_REQUEST_TEXTS as T, followRequestsApi } from '../../people';
import { showToast } from '../../toasts';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Switch = styled.label`
  display: flex;
  align-items: center;
  gap: 10px;
  font-weight: 600;
  cursor: pointer;
  input { width: 20px; height: 20px; accent-color: ${appTheme.color.accent}; }
`;

export function PrivacySettings({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [on, setOn] = useState(user.approveFollowers === true);
  const [busy, setBusy] = useState(false);
  const change = async (next: boolean) => {
    setBusy(true);
    setOn(next);
    try {
      await followRequestsApi.setApproval(next);
      // Turning it off approved the waiting requests: the followers count changed.
      void dispatch(fetchLoggedUser());
    } catch (error) {
      setOn(!next);
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel id={SETTINGS_SECTIONS.privacy} aria-labelledby="privacy-settings">
      <h2 id="privacy-settings">Privacy</h2>
      <p className="lead">{T.settingLead}</p>
      <Switch>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={busy}
          aria-busy={busy}
          onChange={(e) => void change(e.target.checked)}
        />
        {T.setting}
      </Switch>
      <p>
        <AppLink href={`${links.notifications()}#follow-requests`}>{T.title}</AppLink>
      </p>
    </Panel>
  );
}
