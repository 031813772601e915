import { ResetPasswordForm } from '../features/auth';
import { Seo } from '../components/ui/Seo';

/** The page the password-reset mail links to (`?token=…`). */
export default function ResetPasswordPage() {
  return (
    <>
      <Seo title="Choose a new password" description="Choose a new password for your Posts account." />
      <ResetPasswordForm />
    </>
  );
}
