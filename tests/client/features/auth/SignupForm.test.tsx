import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { SignupForm } from '../../../../features/auth/SignupForm';
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
