import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AccountSettings } from '../../../../features/settings';
import { TEXTS } from '../../../../lib/texts';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'ann', email: 'ann@example.com' });

/** Issue 68, item 5: a refusal stays beside its field until the next try; the toast still shows. */
describe('AccountSettings', () => {
  it('says a wrong current password beside it until the next try', async () => {
    let calls = 0;
    server.use(
      http.patch('/api/users/updateAccount', () => {
        calls += 1;
        if (calls === 1)
          return HttpResponse.json({ message: TEXTS.invalidPassword, code: 'InvalidPassword' }, { status: 400 });
        return HttpResponse.json({ user: { ...me, username: 'ann2' } });
      }),
    );
    const user = userEvent.setup();
    const { store } = renderWithProviders(<AccountSettings user={me} />, { preloadedState: signedInState(me) });
    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'ann2');
    const current = screen.getByLabelText('Current password');
    await user.type(current, 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    await vi.waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    expect(current).toHaveAccessibleDescription(TEXTS.invalidPassword);
    expect(current).toHaveFocus();
    expect(store.getState().toasts).toMatchObject([{ message: TEXTS.invalidPassword, kind: 'error' }]);

    await user.clear(current);
    await user.type(current, 'password1');
    await user.click(screen.getByRole('button', { name: 'Save account' }));
    await vi.waitFor(() => expect(calls).toBe(2));
    await vi.waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'false'));
  });
});
