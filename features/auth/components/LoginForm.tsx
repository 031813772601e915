import { useFormik } from 'formik';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';

import { AppLink } from '../../../components/ui/AppLink';
import { loginSchema } from '../../../lib/schemas';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { login, selectAuth } from '../state/authSlice';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { AuthCard } from './AuthCard';
import { links } from '../../../lib/pages';
import { openAfterSignIn } from '../../../services/afterSignIn';
import { ForgotPasswordForm } from './ForgotPasswordForm';

const ForgotRow = styled.div`
  display: flex;
  justify-content: flex-end;
  margin-top: -8px;
`;

export function LoginForm() {
  const dispatch = useAppDispatch();
  const t = useTranslations('auth');
  const router = useRouter();
  const { loading } = useAppSelector(selectAuth).login;
  const [forgot, setForgot] = useState(false);
  // Set once the server says the account needs a two-factor code after its password.
  const [needsCode, setNeedsCode] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // The server's refusal, beside the field it is about until the next try (the toast goes after 4 s;
  // issue 68, item 5): the code's when one was asked for, else the password's.
  const [refusal, setRefusal] = useState<string | null>(null);
  const formik = useFormik({
    initialValues: { email: '', password: '', code: '' },
    validationSchema: loginSchema,
    onSubmit: async (values) => {
      const code = needsCode ? values.code.trim() : '';
      setRefusal(null);
      const result = await dispatch(
        login({ email: values.email.trim(), password: values.password, ...(code ? { code } : {}) }),
      );
      if (!login.fulfilled.match(result)) {
        setRefusal(typeof result.payload === 'string' ? result.payload : t('somethingWentWrong'));
        const field = needsCode ? 'code' : 'password';
        (form.current?.elements.namedItem(field) as HTMLInputElement | null)?.focus();
        return;
      }
      // Back to the page that sent them here (`/login?next=`: a shared link, an app's consent page) when it is safe.
      if (result.payload.twoFactorRequired) setNeedsCode(true);
      else openAfterSignIn(router, router.query.next);
    },
  });
  const error = (field: 'email' | 'password') => formik.touched[field] && formik.errors[field];
  useEffect(() => {
    if (needsCode) (form.current?.elements.namedItem('code') as HTMLInputElement | null)?.focus();
  }, [needsCode]);

  if (forgot) return <ForgotPasswordForm email={formik.values.email.trim()} onBack={() => setForgot(false)} />;
  return (
    <AuthCard
      title={t('login.title')}
      lead={t('login.lead')}
      footer={t.rich('login.footer', {
        link: (chunks) => <AppLink href={links.createAccount(router.query.next)}>{chunks}</AppLink>,
      })}
    >
      <form ref={form} onSubmit={formik.handleSubmit} noValidate>
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
          autoComplete="current-password"
          {...formik.getFieldProps('password')}
          error={error('password') || (!needsCode && refusal) || undefined}
        />
        {needsCode && (
          <TextField
            label={t('login.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            hint={t('login.codeHint')}
            {...formik.getFieldProps('code')}
            error={refusal ?? undefined}
          />
        )}
        <ForgotRow>
          <Button type="button" $variant="ghost" $size="sm" onClick={() => setForgot(true)}>
            {t('login.forgot')}
          </Button>
        </ForgotRow>
        <Button type="submit" $block disabled={loading} aria-busy={loading}>
          {loading && <Spinner />} {t('login.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
