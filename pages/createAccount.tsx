import { publicPageProps } from '../lib/pageProps';
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

// Rendered per request in the visitor's language (lib/pageProps.ts).
export const getServerSideProps = publicPageProps;
