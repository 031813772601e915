import { staticPageProps } from '../lib/pageProps';
import { LoginForm } from '../features/auth';
import { Seo } from '../components/ui/Seo';

export default function LoginPage() {
  return (
    <>
      <Seo title="Sign in" description="Sign in to Posts with your email and password." />
      <LoginForm />
    </>
  );
}

// Prerendered in English at build time (lib/pageProps.ts).
export const getStaticProps = staticPageProps;
