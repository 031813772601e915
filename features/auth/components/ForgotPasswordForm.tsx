import { useFormik } from 'formik';
import { useEffect, useRef, useState } from 'react';
import { object, string } from 'yup';
import { EMAIL_TEXTS } from '../../../lib/emailTexts';
import { useAppDispatch } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { emailLinkToasts, requestPasswordReset } from '../state/emailLinks';

const forgotSchema = object({
  email: string().trim().required('Email is required').email('Email must be a valid address'),
});

/** "Forgot password?" on the sign-in page: asks for the address that gets the link. */
export function ForgotPasswordForm({ email, onBack }: { email: string; onBack: () => void }) {
  const dispatch = useAppDispatch();
  useToasts(emailLinkToasts);
  const [sentTo, setSentTo] = useState<string | null>(null);
  // Focus moves to the form that replaced the sign-in form.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const formik = useFormik({
    initialValues: { email },
    validationSchema: forgotSchema,
    onSubmit: async (values) => {
      const address = values.email.trim();
      const result = await dispatch(requestPasswordReset(address));
      if (requestPasswordReset.fulfilled.match(result)) setSentTo(address);
    },
  });
  const error = formik.touched.email && formik.errors.email;

  return (
    <AuthCard
      title="Reset your password"
      lead="Enter the email address of your account and we will mail you a link to choose a new password."
      footer={
        <Button type="button" $variant="ghost" $size="sm" onClick={onBack}>
          Back to sign in
        </Button>
      }
    >
      <form ref={form} onSubmit={formik.handleSubmit} noValidate>
        <TextField label="Email" type="email" autoComplete="email" {...formik.getFieldProps('email')} error={error} />
        <Button type="submit" $block disabled={formik.isSubmitting} aria-busy={formik.isSubmitting}>
          {formik.isSubmitting && <Spinner />} Send link
        </Button>
        <p role="status">{sentTo ? EMAIL_TEXTS.resetLinkSent : ''}</p>
      </form>
    </AuthCard>
  );
}
