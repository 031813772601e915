import { useFormik } from 'formik';
import { useRouter } from 'next/router';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../../../lib/limits';
import { signupSchema } from '../../../lib/schemas';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectAuth, signup } from '../state/authSlice';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { links } from '../../../lib/pages';
import { isRefusal } from '../../../services/errorTexts';

type Field = 'username' | 'email' | 'password';
const FIELDS: readonly Field[] = ['username', 'email', 'password'];

/**
 * The field a refusal of the server is about ("Username is already taken", "Email is already
 * registered"), in English or the page's language.
 */
const refusedField = (message: string): Field =>
  /^email/i.test(message) || isRefusal(message, 'EmailTaken', 'Email is already registered') ? 'email' : 'username';

export function SignupForm() {
  const dispatch = useAppDispatch();
  const t = useTranslations('auth');
  const router = useRouter();
  const { loading } = useAppSelector(selectAuth).signup;
  const form = useRef<HTMLFormElement>(null);
  // The server's refusal beside its field until the next try (issue 68, item 5); the toast stays too.
  const [refusal, setRefusal] = useState<{ field: Field; message: string } | null>(null);
  const focus = (field: Field) => (form.current?.elements.namedItem(field) as HTMLInputElement | null)?.focus();
  const formik = useFormik({
    initialValues: { username: '', email: '', password: '' },
    validationSchema: signupSchema,
    onSubmit: async (values) => {
      setRefusal(null);
      const result = await dispatch(
        signup({ username: values.username, email: values.email.trim(), password: values.password }),
      );
      if (signup.fulfilled.match(result)) return void (await router.push(links.login(router.query.next)));
      const message = typeof result.payload === 'string' ? result.payload : t('somethingWentWrong');
      const field = refusedField(message);
      setRefusal({ field, message });
      focus(field);
    },
  });
  const error = (field: Field) =>
    (formik.touched[field] && formik.errors[field]) || (refusal?.field === field && refusal.message);

  // A submit the form's own checks refuse puts the keyboard in the first field they name (issue 68, item 13).
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const errors = await formik.validateForm();
    const first = FIELDS.find((field) => errors[field]);
    if (first) {
      await formik.setTouched({ username: true, email: true, password: true }, false);
      setRefusal(null);
      focus(first);
      return;
    }
    await formik.submitForm();
  };

  return (
    <AuthCard
      title={t('signup.title')}
      lead={t('signup.lead')}
      footer={t.rich('signup.footer', {
        link: (chunks) => <AppLink href={links.login(router.query.next)}>{chunks}</AppLink>,
      })}
    >
      <form ref={form} onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label={t('username')}
          autoComplete="username"
          hint={t('signup.usernameHint', { min: USERNAME_MIN, max: USERNAME_MAX })}
          {...formik.getFieldProps('username')}
          error={error('username')}
        />
        <TextField
          label={t('email')}
          type="email"
          autoComplete="email"
          {...formik.getFieldProps('email')}
          error={error('email')}
        />
        <TextField
          label={t('password')}
          type="password"
          autoComplete="new-password"
          hint={t('passwordHint', { min: PASSWORD_MIN })}
          {...formik.getFieldProps('password')}
          error={error('password')}
        />
        <Button type="submit" $block disabled={loading} aria-busy={loading}>
          {loading && <Spinner />} {t('signup.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
