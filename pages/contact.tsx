import { ContactCard } from '../features/contact';
import { Seo } from '../components/ui/Seo';
import type { PrivatePageProps } from '../lib/firstLoad';
import { privatePageProps } from '../lib/pageProps';
import { useTranslations } from 'use-intl/react';

// Rendered by the server with the instance's name and address (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function ContactPage({ firstLoad }: PrivatePageProps) {
  const t = useTranslations('pages');
  const page = firstLoad?.page;
  return (
    <>
      <Seo title={t('contact.title')} description={t('contact.description')} />
      <ContactCard initial={page?.kind === 'contact' ? page.instance : null} />
    </>
  );
}
