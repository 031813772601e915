import { useRouter } from 'next/router';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { links } from '../../lib/pages';
import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { AppLink } from '../../components/ui/AppLink';
import { AuthCard } from './AuthCard';
import { fetchLoggedUser, selectSession } from './authSlice';
import { verifyEmail } from './emailLinks';

type Outcome = { state: 'checking' } | { state: 'done'; email: string } | { state: 'failed'; message: string };

/** `/verifyEmail?token=…`: opens the mailed link (once: the link is single use). */
export function VerifyEmailCard() {
  const dispatch = useAppDispatch();
  const router = useRouter();
  const session = useAppSelector(selectSession);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'checking' });
  const sent = useRef(false);
  // A signed-in viewer's banner and settings show the new state; a visitor has nothing to refresh.
  const refreshViewer = useEffectEvent(() => {
    if (session !== 'loggedOut') void dispatch(fetchLoggedUser());
  });

  useEffect(() => {
    if (!router.isReady || sent.current) return;
    sent.current = true;
    const token = typeof router.query.token === 'string' ? router.query.token : '';
    void (async () => {
      const result = await dispatch(verifyEmail(token));
      if (verifyEmail.fulfilled.match(result)) {
        setOutcome({ state: 'done', email: result.payload });
        refreshViewer();
      } else {
        setOutcome({ state: 'failed', message: result.payload ?? EMAIL_TEXTS.invalidLink });
      }
    })();
  }, [router.isReady, router.query.token, dispatch]);

  const title =
    outcome.state === 'done' ? 'Email verified' : outcome.state === 'failed' ? 'This link does not work' : 'Verifying…';
  const lead =
    outcome.state === 'done'
      ? `${EMAIL_TEXTS.emailVerified}: ${outcome.email}.`
      : outcome.state === 'failed'
        ? `${outcome.message}. Signed in, you can ask for a new link from the banner at the top of the page.`
        : 'One moment while we check your link.';
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
