import { publicPageProps } from '../lib/pageProps';
import { LoginForm } from '../features/auth';
import { Seo } from '../components/ui/Seo';
import { useTranslations } from 'use-intl/react';

export default function LoginPage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title={t('login.title')} description={t('login.description')} />
      <LoginForm />
    </>
  );
}

// Rendered per request in the visitor's language (lib/pageProps.ts).
export const getServerSideProps = publicPageProps;
