import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { LoginForm } from '../../../../features/auth/components/LoginForm';
import { SECURITY_TEXTS } from '../../../../lib/securityTexts';
import { TEXTS } from '../../../../lib/texts';
import { buildUser } from '../../support/factories';
import { renderWithProviders } from '../../support/renderWithProviders';
import { router, setRoute } from '../../support/router';
import { loadServerPage } from '../../../../services/navigation';

vi.mock('../../../../services/navigation', () => ({ loadServerPage: vi.fn() }));
import { server } from '../../support/server';

describe('LoginForm with two-factor sign-in', () => {
  it('asks for the code after a right password, then signs in with it', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/login', async ({ request }) => {
        const body = (await request.json()) as { code?: string };
        bodies.push(body);
        if (!body.code) return HttpResponse.json({ success: false, twoFactorRequired: true });
        if (body.code !== '123456')
          return HttpResponse.json(
            { message: SECURITY_TEXTS.invalidTwoFactorCode, code: 'InvalidTwoFactorCode' },
            { status: 401 },
          );
        return HttpResponse.json({ success: true });
      }),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser())),
    );
    const { store } = renderWithProviders(<LoginForm />);
    expect(screen.queryByLabelText('Two-factor code')).toBeNull();
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const code = await screen.findByLabelText('Two-factor code');
    await waitFor(() => expect(code).toHaveFocus());
    expect(router.replace).not.toHaveBeenCalled();
    expect(store.getState().auth.session).not.toBe('loggedIn');

    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(store.getState().toasts).toMatchObject([{ message: SECURITY_TEXTS.invalidTwoFactorCode, kind: 'error' }]),
    );
    expect(router.replace).not.toHaveBeenCalled();

    // Beside the field too, until the next try (issue 68, item 5).
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(expect.stringContaining(SECURITY_TEXTS.invalidTwoFactorCode));
    expect(code).toHaveFocus();

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/home'));
    expect(bodies).toEqual([
      { email: 'ann@example.com', password: 'password1' },
      { email: 'ann@example.com', password: 'password1', code: '000000' },
      { email: 'ann@example.com', password: 'password1', code: '123456' },
    ]);
  });
});

describe("LoginForm sent from an app's consent page", () => {
  function serveLogin() {
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json({ success: true })),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser())),
    );
  }

  async function signIn() {
    const user = userEvent.setup();
    renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'password1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
  }

  it('goes back to the consent page after signing in', async () => {
    serveLogin();
    const next = '/oauth/authorize?response_type=code&client_id=abc';
    setRoute('/login', `/login?next=${encodeURIComponent(next)}`, { next });
    await signIn();
    await waitFor(() => expect(loadServerPage).toHaveBeenCalledWith(next));
    expect(router.replace).not.toHaveBeenCalled();
  });

  it('goes back to the page a visitor was sent from (issue 68, item 3)', async () => {
    serveLogin();
    setRoute('/login', '/login?next=%2Ftagged%2Fx', { next: '/tagged/x' });
    await signIn();
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/tagged/x'));
    expect(loadServerPage).not.toHaveBeenCalled();
  });

  it('goes nowhere on another site: such a next is the home feed', async () => {
    serveLogin();
    setRoute('/login', '/login?next=https://evil.example', { next: 'https://evil.example/oauth/authorize?' });
    await signIn();
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/home'));
    expect(loadServerPage).not.toHaveBeenCalled();
  });
});

describe('LoginForm after a wrong password', () => {
  it('says it beside the password until the next try, and a right one leaves no stale toast (issue 68, items 5 and 8)', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/auth/login', async ({ request }) => {
        const body = (await request.json()) as { password: string };
        if (body.password !== 'password1')
          return HttpResponse.json({ message: TEXTS.invalidCredentials, code: 'InvalidCredentials' }, { status: 401 });
        return HttpResponse.json({ success: true });
      }),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser())),
    );
    const { store } = renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    const password = screen.getByLabelText('Password');
    await user.type(password, 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(store.getState().toasts).toMatchObject([{ message: TEXTS.invalidCredentials, kind: 'error' }]),
    );
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(TEXTS.invalidCredentials);

    await user.clear(password);
    await user.type(password, 'password1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/home'));
    expect(store.getState().toasts).toEqual([]);
    expect(password).toHaveAttribute('aria-invalid', 'false');
  });
});
