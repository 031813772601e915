import { ContactCard } from '../features/contact';
import { Seo } from '../components/ui/Seo';
import type { PrivatePageProps } from '../lib/firstLoad';
import { privatePageProps } from '../lib/pageProps';

// Rendered by the server with the instance's name and address (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function ContactPage({ firstLoad }: PrivatePageProps) {
  const page = firstLoad?.page;
  return (
    <>
      <Seo title="Contact" description="How to reach the people who run this Posts instance." />
      <ContactCard initial={page?.kind === 'contact' ? page.instance : null} />
    </>
  );
}
