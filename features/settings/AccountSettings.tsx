import { useFormik } from 'formik';
import styled from 'styled-components';
import { accountSchema } from '../../lib/schemas';
import type { User } from '../../lib/types';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { selectAuth, updateAccount } from '../auth';
import { Button } from '../../components/ui/Button';
import { Panel, Stack } from '../../components/ui/Panel';
import { Spinner } from '../../components/ui/Spinner';
import { TextField } from '../../components/ui/TextField';
import { appTheme } from '../../themes';

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
`;

const Divider = styled.hr`
  border: none;
  border-top: 1px solid ${appTheme.color.border};
  margin: 4px 0;
`;

export function AccountSettings({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const { loading } = useAppSelector(selectAuth).updateAccount;
  const formik = useFormik({
    initialValues: { username: user.username, newEmail: user.email, password: '', newPassword: '' },
    enableReinitialize: true,
    validationSchema: accountSchema,
    onSubmit: async (values, helpers) => {
      const newEmail = values.newEmail.trim();
      // Only what changed is sent, as the spec's call describes.
      const result = await dispatch(
        updateAccount({
          ...(values.username !== user.username ? { username: values.username } : {}),
          ...(newEmail !== user.email ? { newEmail } : {}),
          password: values.password,
          ...(values.newPassword ? { newPassword: values.newPassword } : {}),
        }),
      );
      if (updateAccount.fulfilled.match(result)) helpers.resetForm();
    },
  });
  const error = (field: keyof typeof formik.values) => formik.touched[field] && formik.errors[field];

  return (
    <Panel aria-labelledby="account-settings">
      <h2 id="account-settings">Account</h2>
      <p className="lead">Your sign-in details. Saving needs your current password.</p>
      <form onSubmit={formik.handleSubmit} noValidate>
        <Stack>
          <TextField
            label="Username"
            autoComplete="username"
            {...formik.getFieldProps('username')}
            error={error('username')}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            hint={
              user.pendingEmail
                ? `${user.pendingEmail} becomes your email once you open the link we sent there.`
                : 'A new address takes effect once you open the link we mail to it.'
            }
            {...formik.getFieldProps('newEmail')}
            error={error('newEmail')}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="Leave empty to keep your password"
            {...formik.getFieldProps('newPassword')}
            error={error('newPassword')}
          />
          <Divider />
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            {...formik.getFieldProps('password')}
            error={error('password')}
          />
          <Actions>
            <Button type="submit" disabled={loading} aria-busy={loading}>
              {loading && <Spinner />} Save account
            </Button>
          </Actions>
        </Stack>
      </form>
    </Panel>
  );
}
