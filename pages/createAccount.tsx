import { staticPageProps } from '../lib/pageProps';
import { SignupForm } from '../features/auth';
import { Seo } from '../components/ui/Seo';
import { useTranslations } from 'use-intl/react';

export default function CreateAccountPage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title={t('createAccount.title')} description={t('createAccount.description')} />
      <SignupForm />
    </>
  );
}

// Prerendered in English at build time (lib/pageProps.ts).
export const getStaticProps = staticPageProps;
