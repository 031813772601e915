import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { LoginForm } from '../../../../features/auth/components/LoginForm';
import { ResetPasswordForm } from '../../../../features/auth/components/ResetPasswordForm';
import VerifyEmailBanner from '../../../../features/auth/components/VerifyEmailBanner';
import { VerifyEmailCard } from '../../../../features/auth/components/VerifyEmailCard';
import { EMAIL_TEXTS } from '../../../../lib/emailTexts';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { resetRouter, router, setRoute } from '../../support/router';
import { server } from '../../support/server';

afterEach(() => resetRouter());

describe('Forgot password? on /login', () => {
  it('asks for the address, sends it, and says the same whatever the answer', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    server.use(
      http.post('/api/auth/password/forgot', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ success: true });
      }),
    );
    renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ann@example.com');
    await waitFor(() => expect(email).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(EMAIL_TEXTS.resetLinkSent));
    expect(sent).toEqual([{ email: 'ann@example.com' }]);

    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it("shows the server's refusal (rate limited) as a toast, and no promise", async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/password/forgot', () =>
        HttpResponse.json(
          { message: 'Too many requests, try again in 60 seconds', code: 'RateLimited' },
          { status: 429 },
        ),
      ),
    );
    const { store } = renderWithProviders(<LoginForm />);
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    await waitFor(() =>
      expect(store.getState().toasts).toMatchObject([
        // The wait in words (issue 68, item 11).
        { message: 'Too many requests, try again in about a minute', kind: 'error', time: 4000 },
      ]),
    );
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});

describe('ResetPasswordForm', () => {
  it('sends the token with the new password, signs this browser out and goes to /login', async () => {
    const user = userEvent.setup();
    let body: unknown;
    server.use(
      http.post('/api/auth/password/reset', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ success: true });
      }),
    );
    setRoute('/resetPassword', '/resetPassword?token=abc', { token: 'abc' });
    const { store } = renderWithProviders(<ResetPasswordForm />, { preloadedState: signedInState(buildUser()) });
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('New password must be 8–128 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), ' but longer now');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() => expect(router.push).toHaveBeenCalledWith('/login'));
    expect(body).toEqual({ token: 'abc', password: 'short but longer now' });
    expect(store.getState().auth.user).toBeNull();
    expect(store.getState().toasts).toMatchObject([{ message: EMAIL_TEXTS.passwordReset, kind: 'success' }]);
  });

  it('shows Invalid or expired link from the server and stays', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/password/reset', () =>
        HttpResponse.json({ message: EMAIL_TEXTS.invalidLink, code: 'InvalidLink' }, { status: 400 }),
      ),
    );
    setRoute('/resetPassword', '/resetPassword?token=old', { token: 'old' });
    const { store } = renderWithProviders(<ResetPasswordForm />);
    await user.type(screen.getByLabelText('New password'), 'long enough secret');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    await waitFor(() =>
      expect(store.getState().toasts).toMatchObject([{ message: EMAIL_TEXTS.invalidLink, kind: 'error' }]),
    );
    expect(router.push).not.toHaveBeenCalled();
  });

  it('says a link without a token is incomplete', () => {
    setRoute('/resetPassword');
    renderWithProviders(<ResetPasswordForm />);
    expect(screen.getByRole('heading', { name: 'This link is incomplete' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});

describe('VerifyEmailCard', () => {
  it('opens the link once and says the address is verified', async () => {
    let calls = 0;
    server.use(
      http.post('/api/auth/email/verify', () => {
        calls += 1;
        return HttpResponse.json({ success: true, email: 'ann@example.com' });
      }),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser({ emailVerified: true }))),
    );
    setRoute('/verifyEmail', '/verifyEmail?token=t1', { token: 't1' });
    const ann = buildUser({ emailVerified: false });
    const { store } = renderWithProviders(<VerifyEmailCard />, { preloadedState: signedInState(ann) });
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(`${EMAIL_TEXTS.emailVerified}: ann@example.com.`),
    );
    expect(screen.getByRole('heading', { name: 'Email verified' })).toBeInTheDocument();
    expect(calls).toBe(1);
    // The signed-in viewer is read again: the banner goes.
    await waitFor(() => expect(store.getState().auth.user?.emailVerified).toBe(true));
  });

  it("shows the server's message for a dead link", async () => {
    server.use(
      http.post('/api/auth/email/verify', () =>
        HttpResponse.json({ message: EMAIL_TEXTS.invalidLink, code: 'InvalidLink' }, { status: 400 }),
      ),
    );
    setRoute('/verifyEmail', '/verifyEmail?token=t2', { token: 't2' });
    renderWithProviders(<VerifyEmailCard />);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(EMAIL_TEXTS.invalidLink));
    expect(screen.getByRole('heading', { name: 'This link does not work' })).toBeInTheDocument();
  });
});

describe('VerifyEmailBanner', () => {
  it('names the address and sends the link again', async () => {
    const user = userEvent.setup();
    let resent = 0;
    server.use(
      http.post('/api/auth/email/resend', () => {
        resent += 1;
        return HttpResponse.json({ success: true });
      }),
    );
    const ann = buildUser({ email: 'ann@example.com', emailVerified: false });
    const { store } = renderWithProviders(<VerifyEmailBanner user={ann} underNavbar={false} />);
    const banner = screen.getByRole('region', { name: 'Email verification' });
    expect(banner).toHaveTextContent('ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    await waitFor(() =>
      expect(store.getState().toasts).toMatchObject([{ message: EMAIL_TEXTS.verificationSent, kind: 'success' }]),
    );
    expect(resent).toBe(1);
  });

  it('names the pending new address when there is one', () => {
    const ann = buildUser({ emailVerified: false, pendingEmail: 'new@example.com' });
    renderWithProviders(<VerifyEmailBanner user={ann} underNavbar={false} />);
    expect(screen.getByRole('region', { name: 'Email verification' })).toHaveTextContent('new@example.com');
  });
});
