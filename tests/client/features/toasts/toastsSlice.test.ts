import { TOAST_AUTH_ERROR_MS, TOAST_DEFAULT_MS } from '../../../../lib/limits';
import { makeStore } from '../../../../store';
import { showToast } from '../../../../features/toasts/state/toastsSlice';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());

  it('keeps a toast for the default 2000 ms, then removes it', () => {
    const store = makeStore();
    store.dispatch(showToast('Liked', 'success'));
    expect(store.getState().toasts).toEqual([expect.objectContaining({ message: 'Liked', time: TOAST_DEFAULT_MS })]);
    vi.advanceTimersByTime(TOAST_DEFAULT_MS - 1);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toHaveLength(0);
  });

  it('honours a longer time and removes each toast on its own', () => {
    const store = makeStore();
    store.dispatch(showToast('Invalid email or password', 'error', TOAST_AUTH_ERROR_MS));
    store.dispatch(showToast('Liked'));
    vi.advanceTimersByTime(TOAST_DEFAULT_MS);
    expect(store.getState().toasts.map((n) => n.message)).toEqual(['Invalid email or password']);
    vi.advanceTimersByTime(TOAST_AUTH_ERROR_MS - TOAST_DEFAULT_MS);
    expect(store.getState().toasts).toEqual([]);
  });

  it('gives every toast its own id', () => {
    const store = makeStore();
    store.dispatch(showToast('a'));
    store.dispatch(showToast('a'));
    const [first, second] = store.getState().toasts;
    expect(first.id).not.toBe(second.id);
  });
});
