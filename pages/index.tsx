import { publicPageProps } from '../lib/pageProps';
import { Hero } from '../features/landing';
import { Seo } from '../components/ui/Seo';
import { useTranslations } from 'use-intl/react';
import { LandingFooter } from '../features/landing';

export default function LandingPage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title="Posts" description={t('landing.description')} />
      <Hero />
      <LandingFooter />
    </>
  );
}

// Rendered per request in the visitor's language (lib/pageProps.ts).
export const getServerSideProps = publicPageProps;
