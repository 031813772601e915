import { act, screen } from '@testing-library/react';
import { Toasts } from '../../../../features/toasts/components/Toasts';
import { TOAST_AUTH_ERROR_MS, TOAST_DEFAULT_MS } from '../../../../lib/limits';
import { TEXTS } from '../../../../lib/texts';
import { showToast } from '../../../../features/toasts/state/toastsSlice';
import { renderWithProviders } from '../../support/renderWithProviders';

describe('Toasts', () => {
  beforeEach(() => vi.useFakeTimers());

  it('shows each text and removes it after its time', () => {
    const { store } = renderWithProviders(<Toasts />);
    act(() => {
      store.dispatch(showToast(TEXTS.postDeleted, 'success'));
      store.dispatch(showToast(TEXTS.invalidCredentials, 'error', TOAST_AUTH_ERROR_MS));
    });
    expect(screen.getByRole('status')).toHaveTextContent('Post has been deleted');
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid email or password');

    act(() => vi.advanceTimersByTime(TOAST_DEFAULT_MS));
    expect(screen.queryByText('Post has been deleted')).not.toBeInTheDocument();
    expect(screen.getByText('Invalid email or password')).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(TOAST_AUTH_ERROR_MS - TOAST_DEFAULT_MS));
    expect(screen.queryByText('Invalid email or password')).not.toBeInTheDocument();
  });

  it('can be dismissed early', () => {
    const { store } = renderWithProviders(<Toasts />);
    act(() => {
      store.dispatch(showToast(TEXTS.liked));
    });
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());
    expect(screen.queryByText('Liked')).not.toBeInTheDocument();
  });
});
