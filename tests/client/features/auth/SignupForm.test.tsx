import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { SignupForm } from '../../../../features/auth/components/SignupForm';
import { TEXTS } from '../../../../lib/texts';
import { renderWithProviders } from '../../support/renderWithProviders';
import { router } from '../../support/router';
import { server } from '../../support/server';

describe('SignupForm', () => {
  it('goes to /login saying the account was created', async () => {
    const user = userEvent.setup();
    server.use(http.post('/api/auth/signup', () => HttpResponse.json({ success: true }, { status: 201 })));
    const { store } = renderWithProviders(<SignupForm />);
    await user.type(screen.getByLabelText('Username'), 'newbie');
    await user.type(screen.getByLabelText('Email'), 'newbie@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(router.push).toHaveBeenCalledWith('/login'));
    expect(store.getState().toasts).toMatchObject([{ message: TEXTS.accountCreated, kind: 'success' }]);
  });
});

describe('SignupForm after a failed submit', () => {
  it('puts the keyboard in the first field its checks refuse (issue 68, item 13)', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SignupForm />);
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.getByLabelText('Username')).toHaveFocus());
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('Username'), 'newbie');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus());
  });

  it('shows a taken username beside the field until the next try, with the toast (issue 68, item 5)', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/signup', () =>
        HttpResponse.json({ message: 'Username is already taken', code: 'UsernameTaken' }, { status: 409 }),
      ),
    );
    const { store } = renderWithProviders(<SignupForm />);
    const username = screen.getByLabelText('Username');
    await user.type(username, 'taken');
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    expect(username).toHaveAccessibleDescription(expect.stringContaining('Username is already taken'));
    expect(username).toHaveFocus();
    expect(store.getState().toasts).toMatchObject([{ message: 'Username is already taken', kind: 'error' }]);
    expect(router.push).not.toHaveBeenCalled();
  });
});
