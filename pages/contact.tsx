import { ContactCard } from '../components/contact/ContactCard';
import { Seo } from '../components/ui/Seo';

export default function ContactPage() {
  return (
    <>
      <Seo title="Contact" description="How to reach the people who run this Posts instance." />
      <ContactCard />
    </>
  );
}
