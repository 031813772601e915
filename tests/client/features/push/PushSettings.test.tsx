/**
 * Settings' "Notifications on this device" (issue 74) in its states the browser suite does not
 * reach: a browser without Web Push, an instance with pushes off, and the permission refused;
 * then on, a kind changed and off again. The browser's own APIs (service worker registration,
 * PushManager, Notification) are stood in for here, as jsdom has none; the server is msw.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import PushSettings from '../../../../features/push/components/PushSettings';
import { renderWithProviders } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const KEY = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => i + 1)).toString('base64url');
const ENDPOINT = 'https://push.example.net/send/abc';
const EVERY = { follow: true, follow_request: true, like: true, comment: true, mention: true };

interface Browser {
  permission: NotificationPermission;
  asked: number;
  subscription: { endpoint: string; toJSON: () => object; unsubscribe: () => Promise<boolean> } | null;
  unsubscribed: number;
}

/** A browser with Web Push: a registered worker whose PushManager hands out one subscription. */
function browserWithPush(answer: NotificationPermission, subscribed = false): Browser {
  const browser: Browser = { permission: 'default', asked: 0, subscription: null, unsubscribed: 0 };
  const subscription = {
    endpoint: ENDPOINT,
    toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe: async () => {
      browser.unsubscribed += 1;
      browser.subscription = null;
      return true;
    },
  };
  if (subscribed) {
    browser.subscription = subscription;
    browser.permission = 'granted';
  }
  const registration = {
    pushManager: {
      getSubscription: async () => browser.subscription,
      subscribe: async () => (browser.subscription = subscription),
    },
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    get permission() {
      return browser.permission;
    },
    requestPermission: async () => {
      browser.asked += 1;
      browser.permission = answer;
      return answer;
    },
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: async () => registration,
      register: async () => registration,
      ready: Promise.resolve(registration),
    },
  });
  return browser;
}

afterEach(() => {
  server.events.removeAllListeners();
  vi.unstubAllGlobals();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

/** Every request the section made, as "METHOD path". */
function recordRequests(): string[] {
  const made: string[] = [];
  server.events.on('request:start', ({ request }) => made.push(`${request.method} ${new URL(request.url).pathname}`));
  return made;
}

describe('PushSettings', () => {
  it('in a browser without Web Push says so, and asks the server nothing', async () => {
    const made = recordRequests();
    renderWithProviders(<PushSettings />);
    expect(await screen.findByText(/This browser cannot show notifications from Posts/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).not.toBeInTheDocument();
    expect(made).toEqual([]);
  });

  it('says when the instance has pushes turned off', async () => {
    const browser = browserWithPush('granted');
    server.use(
      http.get('/api/push/key', () =>
        HttpResponse.json(
          { code: 'PushDisabled', message: 'Push notifications are turned off on this instance' },
          {
            status: 404,
          },
        ),
      ),
    );
    renderWithProviders(<PushSettings />);
    expect(await screen.findByText('Push notifications are turned off on this instance.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).not.toBeInTheDocument();
    expect(browser.asked).toBe(0);
  });

  it('a refused permission says how to allow it, and sends nothing', async () => {
    const browser = browserWithPush('denied');
    const made = recordRequests();
    server.use(http.get('/api/push/key', () => HttpResponse.json({ publicKey: KEY })));
    renderWithProviders(<PushSettings />);
    const turnOn = await screen.findByRole('button', { name: 'Turn on notifications' });
    // Opening the section asks the browser nothing, and the server only for the key (no subscription here).
    expect(browser.asked).toBe(0);
    expect(made).toEqual(['GET /api/push/key']);
    await userEvent.setup().click(turnOn);
    expect(await screen.findByRole('alert')).toHaveTextContent(/Notifications are blocked for Posts in this browser/);
    expect(browser.asked).toBe(1);
    expect(made).toEqual(['GET /api/push/key']);
    expect(screen.getByRole('status')).toHaveTextContent('Off for this device.');
  });

  it('shows a subscription this browser and the server share as on; a kind changes at once; off unsubscribes', async () => {
    const browser = browserWithPush('granted', true);
    const saved = { id: 's1', endpoint: ENDPOINT, alerts: { ...EVERY, like: false }, policy: 'all', serverKey: KEY };
    const changes: unknown[] = [];
    let deleted = 0;
    server.use(
      http.get('/api/push/key', () => HttpResponse.json({ publicKey: KEY })),
      http.get('/api/push/subscription', () => HttpResponse.json(saved)),
      http.put('/api/push/subscription', async ({ request }) => {
        const body = (await request.json()) as { alerts: typeof EVERY };
        changes.push(body);
        return HttpResponse.json({ ...saved, alerts: body.alerts });
      }),
      http.delete('/api/push/subscription', () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<PushSettings />);
    expect(await screen.findByText('On for this device.')).toBeInTheDocument();
    const kinds = screen.getByRole('group', { name: 'Notify me about' });
    // The server's kinds, not the defaults.
    expect(within(kinds).getByLabelText('Likes')).not.toBeChecked();
    await user.click(within(kinds).getByLabelText('Mentions'));
    await waitFor(() => expect(changes).toEqual([{ alerts: { ...EVERY, like: false, mention: false } }]));
    await user.click(screen.getByRole('button', { name: 'Turn off notifications' }));
    expect(await screen.findByText('Off for this device.')).toBeInTheDocument();
    expect(browser.unsubscribed).toBe(1);
    expect(deleted).toBe(1);
    expect(browser.asked).toBe(0);
  });
});
