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
