import { useRouter } from 'next/router';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { links } from '../../../lib/pages';
import { EMAIL_TEXTS } from '../../../lib/emailTexts';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { AppLink } from '../../../components/ui/AppLink';
import { AuthCard } from './AuthCard';
import type { User } from '../../../lib/types';
import { fetchLoggedUser, selectSession, selectUser } from '../state/authSlice';
import { verifyEmail } from '../state/emailLinks';

type Outcome = { state: 'checking' } | { state: 'done'; email: string } | { state: 'failed'; message: string };

/** Where a new link comes from, for whoever is looking: only an unverified viewer has the banner. */
function newLinkHint(user: User | null): string {
  if (!user) return 'Signed in, you can ask for a new link from the banner at the top of the page.';
  if (!user.emailVerified) return 'You can ask for a new link from the banner at the top of the page.';
  return `${EMAIL_TEXTS.alreadyVerified}.`;
}

/**
 * `/verifyEmail?token=…`: opens the mailed link (once: the link is single use). The server renders
 * it with the query and the signed-in viewer (getServerSideProps), so what it says first is final.
 */
export function VerifyEmailCard() {
  const dispatch = useAppDispatch();
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
        setOutcome({ state: 'failed', message: result.payload ?? EMAIL_TEXTS.invalidLink });
      }
    })();
  }, [router.isReady, token, dispatch]);

  const incomplete = router.isReady && !token;
  let title = 'Verifying…';
  let lead = 'One moment while we check your link.';
  if (incomplete) {
    title = 'This link is incomplete';
    lead = `Open the link from the mail again. ${newLinkHint(user)}`;
  } else if (outcome.state === 'done') {
    title = 'Email verified';
    lead = `${EMAIL_TEXTS.emailVerified}: ${outcome.email}.`;
  } else if (outcome.state === 'failed') {
    title = 'This link does not work';
    lead = `${outcome.message}. ${newLinkHint(user)}`;
  }
  return (
    <AuthCard
      title={title}
      lead=""
      footer={
        session === 'loggedIn' ? (
          <AppLink href={links.home()}>Go to Home</AppLink>
        ) : (
          <AppLink href={links.login()}>Sign in</AppLink>
        )
      }
    >
      <p role="status">{lead}</p>
    </AuthCard>
  );
}
