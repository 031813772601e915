import { useFormik } from 'formik';
import { useRouter } from 'next/router';
import { AppLink } from '../../components/ui/AppLink';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../../lib/limits';
import { signupSchema } from '../../lib/schemas';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { selectAuth, signup } from './authSlice';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { TextField } from '../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { links } from '../../lib/pages';

export function SignupForm() {
  const dispatch = useAppDispatch();
  const router = useRouter();
  const { loading } = useAppSelector(selectAuth).signup;
  const formik = useFormik({
    initialValues: { username: '', email: '', password: '' },
    validationSchema: signupSchema,
    onSubmit: async (values) => {
      const result = await dispatch(
        signup({ username: values.username, email: values.email.trim(), password: values.password }),
      );
      if (signup.fulfilled.match(result)) await router.push(links.login());
    },
  });
  const error = (field: 'username' | 'email' | 'password') => formik.touched[field] && formik.errors[field];

  return (
    <AuthCard
      title="Create your account"
      lead="Share images with a message and tags, and follow the people you like."
      footer={
        <>
          Already have an account? <AppLink href={links.login()}>Sign in</AppLink>
        </>
      }
    >
      <form onSubmit={formik.handleSubmit} noValidate>
        <TextField
          label="Username"
          autoComplete="username"
          hint={`${USERNAME_MIN}–${USERNAME_MAX} letters, digits, _ or .`}
          {...formik.getFieldProps('username')}
          error={error('username')}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          {...formik.getFieldProps('email')}
          error={error('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN} characters`}
          {...formik.getFieldProps('password')}
          error={error('password')}
        />
        <Button type="submit" $block disabled={loading} aria-busy={loading}>
          {loading && <Spinner />} Create Account
        </Button>
      </form>
    </AuthCard>
  );
}
