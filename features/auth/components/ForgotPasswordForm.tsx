import { useFormik } from 'formik';
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'use-intl/react';
import { object } from 'yup';
import { emailField } from '../../../lib/schemas';
import { useAppDispatch } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { emailLinkToasts, requestPasswordReset } from '../state/emailLinks';

const forgotSchema = object({ email: emailField() });

/** "Forgot password?" on the sign-in page: asks for the address that gets the link. */
export function ForgotPasswordForm({ email, onBack }: { email: string; onBack: () => void }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('auth');
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
      title={t('forgot.title')}
      lead={t('forgot.lead')}
      footer={
        <Button type="button" $variant="ghost" $size="sm" onClick={onBack}>
          {t('forgot.back')}
        </Button>
      }
    >
      <form ref={form} onSubmit={formik.handleSubmit} noValidate>
        <TextField
          label={t('email')}
          type="email"
          autoComplete="email"
          {...formik.getFieldProps('email')}
          error={error}
        />
        <Button type="submit" $block disabled={formik.isSubmitting} aria-busy={formik.isSubmitting}>
          {formik.isSubmitting && <Spinner />} {t('forgot.submit')}
        </Button>
        <p role="status">{sentTo ? t('forgot.sent') : ''}</p>
      </form>
    </AuthCard>
  );
}
