import { useRouter } from 'next/router';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { links } from '../../../lib/pages';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { AppLink } from '../../../components/ui/AppLink';
import { AuthCard } from './AuthCard';
import { fetchLoggedUser, selectSession, selectUser } from '../state/authSlice';
import { verifyEmail } from '../state/emailLinks';

/** The server's refusal (its English words), or none: the card's own words then. */
type Outcome = { state: 'checking' } | { state: 'done'; email: string } | { state: 'failed'; message: string | null };

/**
 * `/verifyEmail?token=…`: opens the mailed link (once: the link is single use). The server renders
 * it with the query and the signed-in viewer (getServerSideProps), so what it says first is final.
 */
export function VerifyEmailCard() {
  const dispatch = useAppDispatch();
  const t = useTranslations('auth');
  const router = useRouter();
  const session = useAppSelector(selectSession);
  const user = useAppSelector(selectUser);
  const token = typeof router.query.token === 'string' ? router.query.token : '';
  const [outcome, setOutcome] = useState<Outcome>({ state: 'checking' });
  const sent = useRef(false);
  // A signed-in viewer's banner and settings show the new state; a visitor has nothing to refresh.
  const refreshViewer = useEffectEvent(() => {
    if (session !== 'loggedOut') void dispatch(fetchLoggedUser());
  });

  useEffect(() => {
    // Without a token there is nothing to check: no request.
    if (!router.isReady || !token || sent.current) return;
    sent.current = true;
    void (async () => {
      const result = await dispatch(verifyEmail(token));
      if (verifyEmail.fulfilled.match(result)) {
        setOutcome({ state: 'done', email: result.payload });
        refreshViewer();
      } else {
        setOutcome({ state: 'failed', message: result.payload ?? null });
      }
    })();
  }, [router.isReady, token, dispatch]);

  const incomplete = router.isReady && !token;
  // Where a new link comes from, for whoever is looking: only an unverified viewer has the banner.
  let hint: string;
  if (!user) hint = t('verify.hintSignedOut');
  else if (!user.emailVerified) hint = t('verify.hintBanner');
  else hint = t('verify.hintVerified');
  let title = t('verify.checkingTitle');
  let lead = t('verify.checkingLead');
  if (incomplete) {
    title = t('linkIncomplete');
    lead = t('verify.incompleteLead', { hint });
  } else if (outcome.state === 'done') {
    title = t('verify.doneTitle');
    lead = t('verify.doneLead', { email: outcome.email });
  } else if (outcome.state === 'failed') {
    title = t('verify.failedTitle');
    lead = t('verify.failedLead', { message: outcome.message ?? t('invalidLink'), hint });
  }
  return (
    <AuthCard
      title={title}
      lead=""
      footer={
        session === 'loggedIn' ? (
          <AppLink href={links.home()}>{t('verify.goHome')}</AppLink>
        ) : (
          <AppLink href={links.login()}>{t('login.submit')}</AppLink>
        )
      }
    >
      <p role="status">{lead}</p>
    </AuthCard>
  );
}
