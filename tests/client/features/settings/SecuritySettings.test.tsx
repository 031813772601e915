import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import SecuritySettings from '../../../../features/settings/components/SecuritySettings';
import { SECURITY_TEXTS } from '../../../../lib/securityTexts';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { router } from '../../support/router';
import { server } from '../../support/server';

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const at = '2026-11-23T10:00:00.000Z';

function serve(twoFactor = { enabled: false, recoveryCodesLeft: 0 }) {
  const deleted: unknown[] = [];
  const undone: string[] = [];
  let blocked = [{ _id: 'u1', username: 'bob', avatar: null, description: '' }];
  let sessions = [
    { id: 's1', userAgent: CHROME_MAC, createdAt: at, lastUsedAt: at, current: true },
    { id: 's2', userAgent: FIREFOX_LINUX, createdAt: at, lastUsedAt: at, current: false },
  ];
  let apps = [{ id: 'a1', name: 'Ivory', website: null, scopes: ['read', 'write'], authorizedAt: at }];
  server.use(
    http.get('/api/auth/apps', () => HttpResponse.json(apps)),
    http.delete('/api/auth/apps/:id', ({ params }) => {
      apps = apps.filter((a) => a.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/auth/sessions', () => HttpResponse.json(sessions)),
    http.delete('/api/auth/sessions/:id', ({ params }) => {
      sessions = sessions.filter((s) => s.id !== params.id);
      return HttpResponse.json({ success: true });
    }),
    http.get('/api/auth/2fa', () => HttpResponse.json(twoFactor)),
    http.get('/api/users/me/blocks', () => HttpResponse.json(blocked)),
    http.get('/api/users/me/mutes', () => HttpResponse.json([])),
    // The followed tags' section (issue 73) reads its list beside the others.
    http.get('/api/tags', () => HttpResponse.json([])),
    http.patch('/api/users/:username/unblock', ({ params }) => {
      undone.push(`unblock ${String(params.username)}`);
      blocked = blocked.filter((u) => u.username !== params.username);
      return HttpResponse.json({ user: { username: params.username, blockedByMe: false } });
    }),
    http.delete('/api/users/me', async ({ request }) => {
      deleted.push(await request.json());
      return HttpResponse.json({ success: true });
    }),
    http.get('/api/auth/getLoggedUser', () =>
      HttpResponse.json({ message: 'x', code: 'Unauthorized' }, { status: 401 }),
    ),
  );
  return { deleted, undone };
}

describe('SecuritySettings', () => {
  it('lists the blocked and muted people and unblocks one', async () => {
    const { undone } = serve();
    const user = userEvent.setup();
    const me = buildUser();
    const { store } = renderWithProviders(<SecuritySettings username={me.username} />, {
      preloadedState: signedInState(me),
    });
    const section = await screen.findByRole('region', { name: 'Blocked and muted' });
    await within(section).findByRole('link', { name: 'bob' });
    expect(within(section).getByText('You have not muted anyone.')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Unblock bob' }));
    await within(section).findByText('You have not blocked anyone.');
    expect(undone).toEqual(['unblock bob']);
    expect(store.getState().toasts).toMatchObject([{ message: 'You unblocked bob', kind: 'success' }]);
  });

  it('lists the authorised apps and revokes one', async () => {
    serve();
    const user = userEvent.setup();
    const me = buildUser();
    const { store } = renderWithProviders(<SecuritySettings username={me.username} />, {
      preloadedState: signedInState(me),
    });
    const section = await screen.findByRole('region', { name: 'Authorised apps' });
    await within(section).findByText('Ivory');
    expect(within(section).getByText(/Can read, write/)).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Revoke Ivory' }));
    await within(section).findByText('You have not authorised any app.');
    expect(store.getState().toasts).toMatchObject([{ message: SECURITY_TEXTS.appRevoked, kind: 'success' }]);
  });

  it('lists the devices by browser and system, and signs one out', async () => {
    serve();
    const user = userEvent.setup();
    const me = buildUser();
    const { store } = renderWithProviders(<SecuritySettings username={me.username} />, {
      preloadedState: signedInState(me),
    });
    const devices = await screen.findByRole('region', { name: 'Where you are signed in' });
    const items = await within(devices).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')!.textContent)).toEqual([
      'Chrome on macOSThis device',
      'Firefox on Linux',
    ]);
    await user.click(within(devices).getByRole('button', { name: 'Sign out Firefox on Linux' }));
    await waitFor(() => expect(within(devices).getAllByRole('listitem')).toHaveLength(1));
    expect(store.getState().toasts).toMatchObject([{ message: SECURITY_TEXTS.sessionSignedOut, kind: 'success' }]);
    expect(within(devices).getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });

  it('deletes the account only once the username is typed, with the code when two-factor is on', async () => {
    const { deleted } = serve({ enabled: true, recoveryCodesLeft: 10 });
    const user = userEvent.setup();
    const me = buildUser({ username: 'ann' });
    const { store } = renderWithProviders(<SecuritySettings username="ann" />, { preloadedState: signedInState(me) });
    const data = await screen.findByRole('region', { name: 'Your data' });
    expect(within(data).getByRole('button', { name: 'Download your data' })).toBeEnabled();
    const form = within(data).getByRole('form', { name: 'Delete account' });
    const button = within(form).getByRole('button', { name: 'Delete account' });
    await user.type(within(form).getByLabelText('Your password'), 'password1');
    await within(form).findByLabelText('Two-factor code');
    await user.type(within(form).getByLabelText('Two-factor code'), '123456');
    await user.type(within(form).getByLabelText('Type ann to confirm'), 'anne');
    expect(button).toBeDisabled();
    await user.clear(within(form).getByLabelText('Type ann to confirm'));
    await user.type(within(form).getByLabelText('Type ann to confirm'), 'ann');
    expect(button).toBeEnabled();
    await user.click(button);
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/'));
    expect(deleted).toEqual([{ password: 'password1', code: '123456' }]);
    expect(store.getState().auth.user).toBeNull();
    expect(store.getState().toasts).toMatchObject([{ message: SECURITY_TEXTS.accountDeleted, kind: 'success' }]);
  });
});
