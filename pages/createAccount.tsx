import { staticPageProps } from '../lib/pageProps';
import { SignupForm } from '../features/auth';
import { Seo } from '../components/ui/Seo';

export default function CreateAccountPage() {
  return (
    <>
      <Seo title="Create Account" description="Create a Posts account with a username, email and password." />
      <SignupForm />
    </>
  );
}

// Prerendered in English at build time (lib/pageProps.ts).
export const getStaticProps = staticPageProps;
