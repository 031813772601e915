import { http, HttpResponse } from 'msw';
import {
  fetchUnreadCount,
  markNotificationsRead,
  notificationArrived,
  notificationsShown,
  selectUnreadCount,
  unreadCounted,
} from '../../../../features/notifications/state/notificationsSlice';
import { makeStore } from '../../../../store';
import { buildNotification } from '../../support/factories';
import { server } from '../../support/server';

describe('the unread count, in the store', () => {
  it('starts at 0, takes counts (never below 0), counts arrivals not yet read, falls when the list is shown', () => {
    const store = makeStore();
    const unread = () => selectUnreadCount(store.getState());
    expect(unread()).toBe(0);
    store.dispatch(unreadCounted(3));
    expect(unread()).toBe(3);
    store.dispatch(notificationArrived(buildNotification({ read: false })));
    store.dispatch(notificationArrived(buildNotification({ read: true })));
    expect(unread()).toBe(4);
    store.dispatch(notificationsShown());
    expect(unread()).toBe(0);
    store.dispatch(unreadCounted(-2));
    expect(unread()).toBe(0);
  });

  it('reads the count and marks read through thunks, which take the count the server answers; no toasts', async () => {
    const marked: unknown[] = [];
    server.use(
      http.get('/api/notifications/unread', () => HttpResponse.json({ count: 5 })),
      http.post('/api/notifications/read', async ({ request }) => {
        marked.push(await request.json());
        return HttpResponse.json({ count: 1 });
      }),
    );
    const store = makeStore();
    await store.dispatch(fetchUnreadCount());
    expect(selectUnreadCount(store.getState())).toBe(5);
    await store.dispatch(markNotificationsRead('n9'));
    expect(marked).toEqual([{ upTo: 'n9' }]);
    expect(selectUnreadCount(store.getState())).toBe(1);

    server.use(http.get('/api/notifications/unread', () => HttpResponse.json({ message: 'Broken' }, { status: 500 })));
    await store.dispatch(fetchUnreadCount());
    expect(selectUnreadCount(store.getState())).toBe(1);
    expect(store.getState().toasts).toEqual([]);
  });
});
