import { TOAST_AUTH_ERROR_MS, TOAST_DEFAULT_MS } from '../../../../lib/limits';
import { makeStore } from '../../../../store';
import { notify } from '../../../../features/notifications/notificationsSlice';

describe('notifications', () => {
  beforeEach(() => vi.useFakeTimers());

  it('keeps a toast for the default 2000 ms, then removes it', () => {
    const store = makeStore();
    store.dispatch(notify('Liked', 'success'));
    expect(store.getState().notifications).toEqual([
      expect.objectContaining({ message: 'Liked', time: TOAST_DEFAULT_MS }),
    ]);
    vi.advanceTimersByTime(TOAST_DEFAULT_MS - 1);
    expect(store.getState().notifications).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().notifications).toHaveLength(0);
  });

  it('honours a longer time and removes each toast on its own', () => {
    const store = makeStore();
    store.dispatch(notify('Invalid email or password', 'error', TOAST_AUTH_ERROR_MS));
    store.dispatch(notify('Liked'));
    vi.advanceTimersByTime(TOAST_DEFAULT_MS);
    expect(store.getState().notifications.map((n) => n.message)).toEqual(['Invalid email or password']);
    vi.advanceTimersByTime(TOAST_AUTH_ERROR_MS - TOAST_DEFAULT_MS);
    expect(store.getState().notifications).toEqual([]);
  });

  it('gives every toast its own id', () => {
    const store = makeStore();
    store.dispatch(notify('a'));
    store.dispatch(notify('a'));
    const [first, second] = store.getState().notifications;
    expect(first.id).not.toBe(second.id);
  });
});
