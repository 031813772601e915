import { useFormik } from 'formik';
import { useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { accountSchema } from '../../../lib/schemas';
import { SECURITY_TEXTS } from '../../../lib/securityTexts';
import { TEXTS } from '../../../lib/texts';
import { isRefusal } from '../../../services/errorTexts';
import type { User } from '../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectAuth, updateAccount } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { Panel, Stack } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { TextField } from '../../../components/ui/TextField';
import { appTheme } from '../../../themes';
import { SETTINGS_SECTIONS } from '../lib/sections';
import { LanguagePicker } from '../../language';

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
`;

const Divider = styled.hr`
  border: none;
  border-top: 1px solid ${appTheme.color.border};
  margin: 4px 0;
`;

type Field = 'username' | 'newEmail' | 'password' | 'newPassword';

/**
 * The field a refusal of the server is about: a wrong current password, a taken name or address
 * (those by their code's text, translated: errorTexts.ts), or a rule the server's message names.
 */
function refusedField(message: string): Field | null {
  if (isRefusal(message, 'InvalidPassword', TEXTS.invalidPassword) || /current password/i.test(message))
    return 'password';
  if (isRefusal(message, 'UsernameTaken', 'Username is already taken')) return 'username';
  if (isRefusal(message, 'UsernameRetired', SECURITY_TEXTS.usernameRetired)) return 'username';
  if (isRefusal(message, 'EmailTaken', 'Email is already registered')) return 'newEmail';
  if (/^username/i.test(message)) return 'username';
  if (/^email/i.test(message)) return 'newEmail';
  if (/^new password/i.test(message)) return 'newPassword';
  return null;
}

export function AccountSettings({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const schema = useMemo(() => accountSchema(), []);
  const { loading } = useAppSelector(selectAuth).updateAccount;
  const form = useRef<HTMLFormElement>(null);
  // The server's refusal beside its field until the next try (issue 68, item 5); the toast shows too.
  const [refusal, setRefusal] = useState<{ field: Field; message: string } | null>(null);
  const formik = useFormik({
    initialValues: { username: user.username, newEmail: user.email, password: '', newPassword: '' },
    enableReinitialize: true,
    validationSchema: schema,
    onSubmit: async (values, helpers) => {
      const newEmail = values.newEmail.trim();
      setRefusal(null);
      // Only what changed is sent, as the spec's call describes.
      const result = await dispatch(
        updateAccount({
          ...(values.username !== user.username ? { username: values.username } : {}),
          ...(newEmail !== user.email ? { newEmail } : {}),
          password: values.password,
          ...(values.newPassword ? { newPassword: values.newPassword } : {}),
        }),
      );
      if (updateAccount.fulfilled.match(result)) return helpers.resetForm();
      const message = typeof result.payload === 'string' ? result.payload : null;
      const field = message ? refusedField(message) : null;
      if (!message || !field) return;
      setRefusal({ field, message });
      (form.current?.elements.namedItem(field) as HTMLInputElement | null)?.focus();
    },
  });
  const error = (field: Field) =>
    (formik.touched[field] && formik.errors[field]) || (refusal?.field === field && refusal.message);

  return (
    <Panel id={SETTINGS_SECTIONS.account} aria-labelledby="account-settings">
      <h2 id="account-settings">{t('account.heading')}</h2>
      <p className="lead">{t('account.lead')}</p>
      <form ref={form} onSubmit={formik.handleSubmit} noValidate>
        <Stack>
          <TextField
            label={t('account.username')}
            autoComplete="username"
            {...formik.getFieldProps('username')}
            error={error('username')}
          />
          <TextField
            label={t('account.email')}
            type="email"
            autoComplete="email"
            hint={user.pendingEmail ? t('account.pendingEmail', { email: user.pendingEmail }) : t('account.emailHint')}
            {...formik.getFieldProps('newEmail')}
            error={error('newEmail')}
          />
          <TextField
            label={t('account.newPassword')}
            type="password"
            autoComplete="new-password"
            hint={t('account.newPasswordHint')}
            {...formik.getFieldProps('newPassword')}
            error={error('newPassword')}
          />
          <Divider />
          <TextField
            label={t('account.currentPassword')}
            type="password"
            autoComplete="current-password"
            {...formik.getFieldProps('password')}
            error={error('password')}
          />
          <Actions>
            <Button type="submit" disabled={loading} aria-busy={loading}>
              {loading && <Spinner />} {t('account.save')}
            </Button>
          </Actions>
        </Stack>
      </form>
      <LanguagePicker />
    </Panel>
  );
}
