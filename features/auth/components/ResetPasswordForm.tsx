import { useFormik } from 'formik';
import { useRouter } from 'next/router';
import { object, string } from 'yup';
import { PASSWORD_MIN } from '../../../lib/limits';
import { links } from '../../../lib/pages';
import { passwordError } from '../../../lib/validation';
import { useAppDispatch } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { AppLink } from '../../../components/ui/AppLink';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { userCleared } from '../state/authSlice';
import { emailLinkToasts, resetPassword } from '../state/emailLinks';

const resetSchema = object({
  password: string().test('password', (value, ctx) => {
    const error = passwordError(value ?? '', 'New password');
    return error ? ctx.createError({ message: error }) : true;
  }),
});

/** `/resetPassword?token=…`: the page the mailed link opens. */
export function ResetPasswordForm() {
  const dispatch = useAppDispatch();
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
  const backToSignIn = (
    <>
      Remembered it? <AppLink href={links.login()}>Sign in</AppLink>
    </>
  );

  if (router.isReady && !token) {
    return (
      <AuthCard
        title="This link is incomplete"
        lead="Open the link from the mail again, or ask for a new one with “Forgot password?” on the sign-in page."
        footer={backToSignIn}
      >
        {null}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Choose a new password"
      lead="Every device signed in to your account will be signed out."
      footer={backToSignIn}
    >
      <form onSubmit={formik.handleSubmit} noValidate>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN} characters`}
          {...formik.getFieldProps('password')}
          error={formik.touched.password && formik.errors.password}
        />
        <Button type="submit" $block disabled={formik.isSubmitting || !token} aria-busy={formik.isSubmitting}>
          {formik.isSubmitting && <Spinner />} Set new password
        </Button>
      </form>
    </AuthCard>
  );
}
