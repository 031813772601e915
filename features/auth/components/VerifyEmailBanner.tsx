import { useState } from 'react';
import { useTranslations } from 'use-intl/react';
import styled from 'styled-components';
import type { User } from '../../../lib/types';
import { useAppDispatch } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { hideVerifyBannerForADay } from '../../../lib/verifyBanner';
import { Button } from '../../../components/ui/Button';
import { appTheme } from '../../../themes';
import { emailLinkToasts, resendVerification } from '../state/emailLinks';

const Bar = styled.div<{ $underNavbar: boolean }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: 8px 16px;
  padding: 10px 16px;
  /* On a full-bleed page (the profile) the navbar lies over the top of the page. */
  ${({ $underNavbar }) => ($underNavbar ? 'padding-top: calc(var(--navbar-height) + 10px);' : '')}
  background: ${appTheme.color.surfaceRaised};
  border-bottom: 1px solid ${appTheme.color.border};
  color: ${appTheme.color.text};
  font-size: 14px;
  text-align: center;
  p { margin: 0; }
`;

/** For a user whose address is not verified (or whose new address waits for its link). */
export default function VerifyEmailBanner({ user, underNavbar }: { user: User; underNavbar: boolean }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('auth');
  useToasts(emailLinkToasts);
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    await dispatch(resendVerification());
    setSending(false);
  };
  // Hidden for a day (issue 68, item 15); the keyboard goes on to the page, not to the document's start.
  const remindTomorrow = () => {
    hideVerifyBannerForADay();
    document.querySelector<HTMLElement>('main')?.focus();
  };
  return (
    <Bar role="region" aria-label={t('banner.label')} $underNavbar={underNavbar} data-verify-banner="">
      <p>
        {user.pendingEmail
          ? t('banner.pending', { email: user.pendingEmail })
          : t('banner.unverified', { email: user.email })}
      </p>
      <Button type="button" $variant="secondary" $size="sm" disabled={sending} aria-busy={sending} onClick={resend}>
        {t('banner.resend')}
      </Button>
      <Button type="button" $variant="ghost" $size="sm" onClick={remindTomorrow}>
        {t('banner.remindTomorrow')}
      </Button>
    </Bar>
  );
}
