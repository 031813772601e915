import { http, HttpResponse } from 'msw';
import { openNotificationStream } from '../../../../features/notifications/state/notificationStream';
import type { AppNotification } from '../../../../lib/types';
import { buildNotification } from '../../support/factories';
import { FakeEventSource } from '../../support/eventSource';
import { server } from '../../support/server';

function handlers() {
  return { onCount: vi.fn(), onNotification: vi.fn() };
}

describe('the notification stream', () => {
  it('opens the stream with credentials and reads the unread count each time it opens', async () => {
    let count = 2;
    server.use(http.get('/api/notifications/unread', () => HttpResponse.json({ count })));
    const on = handlers();
    const close = openNotificationStream(on);
    const source = FakeEventSource.last();
    expect(source.url).toBe('/api/notifications/stream');
    expect(source.withCredentials).toBe(true);
    expect(on.onCount).not.toHaveBeenCalled();
    source.open();
    await vi.waitFor(() => expect(on.onCount).toHaveBeenCalledWith(2));
    // The browser reconnected by itself: the count is read again.
    count = 5;
    source.fail(false);
    source.open();
    await vi.waitFor(() => expect(on.onCount).toHaveBeenLastCalledWith(5));
    expect(FakeEventSource.instances).toHaveLength(1);
    close();
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('hands on each notification once: a replay after a reconnect and unreadable data are dropped', () => {
    server.use(http.get('/api/notifications/unread', () => HttpResponse.json({ count: 0 })));
    const on = handlers();
    openNotificationStream(on);
    const source = FakeEventSource.last();
    source.open();
    const first = buildNotification({ id: 'n1' });
    source.emit('notification', first, 'n1');
    source.emit('notification', first, 'n1');
    source.emit('notification', '{not json', 'n2');
    source.emit('notification', buildNotification({ id: 'n3', type: 'follow', post: null }), 'n3');
    expect(on.onNotification.mock.calls.map(([n]) => (n as AppNotification).id)).toEqual(['n1', 'n3']);
  });

  it('hands on the count an `unread` event carries (unread ones were removed); unreadable data is dropped', async () => {
    server.use(http.get('/api/notifications/unread', () => HttpResponse.json({ count: 3 })));
    const on = handlers();
    openNotificationStream(on);
    const source = FakeEventSource.last();
    source.open();
    await vi.waitFor(() => expect(on.onCount).toHaveBeenCalledWith(3));
    source.emit('unread', { count: 2 });
    source.emit('unread', '{not json');
    source.emit('unread', { count: 'many' });
    source.emit('unread', null);
    source.emit('unread', { count: 0 });
    expect(on.onCount.mock.calls.map(([count]) => count as number)).toEqual([3, 2, 0]);
    expect(on.onNotification).not.toHaveBeenCalled();
  });

  it('reopens a stream the server refused once a read through the API client succeeds', async () => {
    server.use(http.get('/api/notifications/unread', () => HttpResponse.json({ count: 1 })));
    const on = handlers();
    const close = openNotificationStream(on, { retryMs: 5 });
    FakeEventSource.last().fail(true);
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(on.onCount).toHaveBeenCalledWith(1);
    expect(FakeEventSource.instances[0].readyState).toBe(FakeEventSource.CLOSED);
    close();
  });

  it('leaves a lost session to the API client: a refused read waits and asks again until the stream is closed', async () => {
    let reads = 0;
    // The second read is held until the stream is closed: a read every 5 ms would be past 2 by the
    // time a busy machine's `waitFor` looks.
    let answerSecond!: () => void;
    const secondHeld = new Promise<void>((resolve) => (answerSecond = resolve));
    server.use(
      http.get('/api/notifications/unread', async () => {
        reads += 1;
        if (reads >= 2) await secondHeld;
        return HttpResponse.json({ message: 'No session' }, { status: 401 });
      }),
      http.post('/api/auth/refresh', () => HttpResponse.json({ message: 'No session' }, { status: 401 })),
    );
    const close = openNotificationStream(handlers(), { retryMs: 5 });
    FakeEventSource.last().fail(true);
    await vi.waitFor(() => expect(reads).toBe(2));
    close();
    answerSecond();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads).toBe(2);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('opens nothing more once closed while waiting to reopen', async () => {
    server.use(http.get('/api/notifications/unread', () => HttpResponse.json({ count: 0 })));
    const close = openNotificationStream(handlers(), { retryMs: 5 });
    FakeEventSource.last().fail(true);
    close();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
