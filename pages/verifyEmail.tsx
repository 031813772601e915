import { VerifyEmailCard } from '../features/auth';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';
import { useTranslations } from 'use-intl/react';

/** The page the verification and email-change mails link to (`?token=…`). */
export default function VerifyEmailPage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title={t('verifyEmail.title')} description={t('verifyEmail.description')} />
      <VerifyEmailCard />
    </>
  );
}

// Rendered per request (server/pages/privatePages.ts): the link's token is known to the server's
// HTML, and a signed-in viewer's page arrives with its user, so hydration changes nothing.
export const getServerSideProps = privatePageProps;
