/**
 * Settings' Privacy switches (issues 70 and 73): each saved as it changes, through the profile
 * update, and turned back with the error told when the server refuses.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { PrivacySettings } from '../../../../features/settings';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'ann', approveFollowers: false, discoverable: true });

beforeEach(() => server.use(http.get('/api/auth/getLoggedUser', () => HttpResponse.json(me))));

describe('PrivacySettings', () => {
  it('saves each switch as it changes, with its own field', async () => {
    const sent: unknown[] = [];
    server.use(
      http.patch('/api/users/updateProfile', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ user: me });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<PrivacySettings user={me} />, { preloadedState: signedInState(me) });
    const approve = screen.getByRole('switch', { name: 'Approve followers' });
    const discoverable = screen.getByRole('switch', { name: 'Suggest my account and show my posts in Explore' });
    expect(approve).not.toBeChecked();
    expect(discoverable).toBeChecked();

    await user.click(approve);
    await vi.waitFor(() => expect(approve).toBeEnabled());
    await user.click(discoverable);
    await vi.waitFor(() => expect(discoverable).toBeEnabled());
    expect(sent).toEqual([{ approveFollowers: true }, { discoverable: false }]);
    expect(approve).toBeChecked();
    expect(discoverable).not.toBeChecked();
  });

  it('turns a switch back and says why when saving fails', async () => {
    server.use(
      http.patch('/api/users/updateProfile', () =>
        HttpResponse.json({ message: 'Too many changes, try again later', code: 'TooManyRequests' }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    const { store } = renderWithProviders(<PrivacySettings user={me} />, { preloadedState: signedInState(me) });
    const discoverable = screen.getByRole('switch', { name: 'Suggest my account and show my posts in Explore' });
    await user.click(discoverable);
    await vi.waitFor(() => expect(discoverable).toBeEnabled());
    expect(discoverable).toBeChecked();
    expect(store.getState().toasts).toMatchObject([{ message: 'Too many changes, try again later', kind: 'error' }]);
  });
});
