/**
 * "Approve followers" (issue 70): when on, a follow of the user is a request they answer on the
 * notifications page. Separate from who may see a post, whose default is chosen below it. Each is
 * saved at once, as it changes.
 */
import { type ReactNode, useId, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { Panel } from '../../../components/ui/Panel';
import { AUDIENCES, type Audience } from '../../../lib/audience';
import { links } from '../../../lib/pages';
import type { User } from '../../../lib/types';
import { FieldWrap } from '../../../components/ui/TextField';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { fetchLoggedUser } from '../../auth';
import { followRequestsApi } from '../../people';
import { showToast } from '../../toasts';
import { SETTINGS_SECTIONS } from '../lib/sections';
import { privacyApi } from '../state/privacyApi';

const Switch = styled.label`
  display: flex;
  align-items: center;
  gap: 10px;
  font-weight: 600;
  cursor: pointer;
  input { width: 20px; height: 20px; accent-color: ${appTheme.color.accent}; }
`;

/** Each audience's label and what it means, named whole so the catalogue test sees the keys. */
function useAudienceTexts(): Record<Audience, { label: string; hint: string }> {
  const t = useTranslations('settings');
  return {
    public: { label: t('privacy.audiences.public'), hint: t('privacy.audiences.publicHint') },
    unlisted: { label: t('privacy.audiences.unlisted'), hint: t('privacy.audiences.unlistedHint') },
    followers: { label: t('privacy.audiences.followers'), hint: t('privacy.audiences.followersHint') },
    mentioned: { label: t('privacy.audiences.mentioned'), hint: t('privacy.audiences.mentionedHint') },
  };
}

/** The audience new posts start with: the composer's choice until changed there. */
function DefaultAudience({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const texts = useAudienceTexts();
  const id = useId();
  const [audience, setAudience] = useState<Audience>(user.defaultAudience ?? 'public');
  const [busy, setBusy] = useState(false);
  const change = async (next: Audience) => {
    const before = audience;
    setBusy(true);
    setAudience(next);
    try {
      await privacyApi.setDefaultAudience(next);
      void dispatch(fetchLoggedUser());
      dispatch(showToast(t('privacy.audienceSaved', { audience: texts[next].label }), 'success'));
    } catch (error) {
      setAudience(before);
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FieldWrap>
      <label htmlFor={`${id}-audience`}>{t('privacy.audience')}</label>
      <select
        id={`${id}-audience`}
        value={audience}
        disabled={busy}
        aria-busy={busy}
        onChange={(e) => void change(e.target.value as Audience)}
      >
        {AUDIENCES.map((a) => (
          <option key={a} value={a}>
            {t('privacy.audienceOption', texts[a])}
          </option>
        ))}
      </select>
    </FieldWrap>
  );
}

/**
 * A switch saved as it changes, then the person read again (what it changed shows elsewhere); when
 * saving fails it turns back and the error is told.
 */
function SavedSwitch({
  initial,
  save,
  children,
}: {
  initial: boolean;
  save: (on: boolean) => Promise<unknown>;
  children: ReactNode;
}) {
  const dispatch = useAppDispatch();
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const change = async (next: boolean) => {
    setBusy(true);
    setOn(next);
    try {
      await save(next);
      void dispatch(fetchLoggedUser());
    } catch (error) {
      setOn(!next);
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch>
      <input
        type="checkbox"
        role="switch"
        checked={on}
        disabled={busy}
        aria-busy={busy}
        onChange={(e) => void change(e.target.checked)}
      />
      {children}
    </Switch>
  );
}

export function PrivacySettings({ user }: { user: User }) {
  const t = useTranslations('settings');
  return (
    <Panel id={SETTINGS_SECTIONS.privacy} aria-labelledby="privacy-settings">
      <h2 id="privacy-settings">{t('privacy.heading')}</h2>
      <p className="lead">{t('privacy.lead')}</p>
      {/* Turning it off approves the waiting requests: the followers count changes. */}
      <SavedSwitch initial={user.approveFollowers === true} save={followRequestsApi.setApproval}>
        {t('privacy.approveFollowers')}
      </SavedSwitch>
      <p>
        <AppLink href={`${links.notifications()}#follow-requests`}>{t('privacy.followRequests')}</AppLink>
      </p>
      <DefaultAudience user={user} />
      {/* Explore (issue 73): the person's public posts may trend, and they may be suggested to others. */}
      <SavedSwitch initial={user.discoverable !== false} save={privacyApi.setDiscoverable}>
        {t('privacy.discoverable')}
      </SavedSwitch>
    </Panel>
  );
}
