import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { selectUser } from '../../../../features/auth/state/authSlice';
import { ProfileSettings } from '../../../../features/settings/components/ProfileSettings';
import { TEXTS } from '../../../../lib/texts';
import { useAppSelector } from '../../../../store/hooks';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

function Settings() {
  const user = useAppSelector(selectUser);
  return user ? <ProfileSettings user={user} /> : null;
}

describe('ProfileSettings', () => {
  it.each(['avatar', 'banner'] as const)('removes the %s with Save profile: updateProfile with null', async (kind) => {
    const user = userEvent.setup();
    const me = buildUser({ avatar: '/media/a.webp', banner: '/media/b.webp', description: 'Hi' });
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.patch('/api/users/updateProfile', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ user: { ...me, [kind]: null } });
      }),
    );
    const { store } = renderWithProviders(<Settings />, { preloadedState: signedInState(me) });
    const label = kind === 'avatar' ? 'Avatar' : 'Banner';
    await user.click(screen.getByRole('button', { name: `Remove ${kind}` }));
    // Gone from the form at once, but saved only with the rest of it.
    expect(screen.queryByRole('button', { name: `Remove ${kind}` })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: `Choose ${label.toLowerCase()}` })).toBeInTheDocument();
    expect(bodies).toEqual([]);
    expect(store.getState().auth.user?.[kind]).toBe(me[kind]);

    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(store.getState().auth.user?.[kind]).toBeNull());
    // The removed image is null; the other and the description stay as they are.
    const other = kind === 'avatar' ? 'banner' : 'avatar';
    // The display name and the four link rows go with it as the form holds them (empty: none).
    const fields = Array.from({ length: 4 }, () => ({ name: '', value: '' }));
    expect(bodies).toEqual([
      { email: me.email, [kind]: null, [other]: me[other], description: 'Hi', displayName: '', fields },
    ]);
    expect(store.getState().toasts.map((n) => n.message)).toEqual([TEXTS.userUpdated]);
    expect(screen.getByRole('button', { name: `Choose ${label.toLowerCase()}` })).toBeInTheDocument();
  });

  it('offers no Remove without an image', () => {
    renderWithProviders(<Settings />, { preloadedState: signedInState(buildUser()) });
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  });
});
