import { VerifyEmailCard } from '../features/auth';
import { Seo } from '../components/ui/Seo';

/** The page the verification and email-change mails link to (`?token=…`). */
export default function VerifyEmailPage() {
  return (
    <>
      <Seo title="Verify your email" description="Verify the email address of your Posts account." />
      <VerifyEmailCard />
    </>
  );
}
