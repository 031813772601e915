import { useFormik } from 'formik';
import { useRouter } from 'next/router';
import { useTranslations } from 'use-intl/react';
import { object } from 'yup';
import { PASSWORD_MIN } from '../../../lib/limits';
import { links } from '../../../lib/pages';
import { newPasswordField } from '../../../lib/schemas';
import { useAppDispatch } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { AppLink } from '../../../components/ui/AppLink';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { userCleared } from '../state/authSlice';
import { emailLinkToasts, resetPassword } from '../state/emailLinks';

const resetSchema = object({ password: newPasswordField() });

/** `/resetPassword?token=…`: the page the mailed link opens. */
export function ResetPasswordForm() {
  const dispatch = useAppDispatch();
  const t = useTranslations('auth');
  useToasts(emailLinkToasts);
  const router = useRouter();
  const token = typeof router.query.token === 'string' ? router.query.token : '';
  const formik = useFormik({
    initialValues: { password: '' },
    validationSchema: resetSchema,
    onSubmit: async (values) => {
      const result = await dispatch(resetPassword({ token, password: values.password }));
      if (resetPassword.fulfilled.match(result)) {
        // Every session of the account has ended, this browser's too.
        dispatch(userCleared());
        await router.push(links.login());
      }
    },
  });
  const backToSignIn = t.rich('reset.footer', { link: (chunks) => <AppLink href={links.login()}>{chunks}</AppLink> });

  if (router.isReady && !token) {
    return (
      <AuthCard title={t('linkIncomplete')} lead={t('reset.incompleteLead')} footer={backToSignIn}>
        {null}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('reset.title')} lead={t('reset.lead')} footer={backToSignIn}>
      <form onSubmit={formik.handleSubmit} noValidate>
        <TextField
          label={t('reset.newPassword')}
          type="password"
          autoComplete="new-password"
          hint={t('passwordHint', { min: PASSWORD_MIN })}
          {...formik.getFieldProps('password')}
          error={formik.touched.password && formik.errors.password}
        />
        <Button type="submit" $block disabled={formik.isSubmitting || !token} aria-busy={formik.isSubmitting}>
          {formik.isSubmitting && <Spinner />} {t('reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
