/**
 * Settings' "Notifications on this device" (issue 74, item 2). Chromium here cannot reach a push
 * service (`pushManager.subscribe` answers "Registration failed - permission denied" in the suite's
 * contexts), so the browser's PushManager is replaced by one that hands back a subscription to a
 * made-up endpoint with real P-256 keys; the page's own code, the worker and the server are real.
 * What is checked: the permission is asked only on the press, the subscription the page posts
 * (with the VAPID key it subscribed with and the chosen kinds), changing kinds, and turning off.
 */
import { createECDH, randomBytes } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import { expect, test } from './browser';
import { signInViaApi } from './content';
import { createAccount } from './users';

const ENDPOINT = 'https://push.example.net/send/e2e-subscription';

/** Counts the permission questions and stands in for the push service. */
async function fakePushService(page: Page): Promise<void> {
  const keys = {
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
  await page.context().addInitScript(
    ({ endpoint, keys }) => {
      const w = window as unknown as { permissionAsked: number; subscribedWith: string | null };
      w.permissionAsked = 0;
      w.subscribedWith = null;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = () => {
        w.permissionAsked += 1;
        return ask();
      };
      let current: object | null = null;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
        w.subscribedWith = btoa(String.fromCharCode(...key));
        current = {
          endpoint,
          toJSON: () => ({ endpoint, expirationTime: null, keys }),
          unsubscribe: async () => {
            current = null;
            return true;
          },
        };
        return current as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    },
    { endpoint: ENDPOINT, keys },
  );
}

const asked = (page: Page) => page.evaluate(() => (window as unknown as { permissionAsked: number }).permissionAsked);

const isSubscriptionCall = (method: string) => (request: Request) =>
  request.method() === method && new URL(request.url()).pathname === '/api/push/subscription';

test('the section asks for permission only when pressed, and sends the subscription with the chosen kinds', async ({
  openPage,
}) => {
  const page = await openPage({ serviceWorkers: 'allow' });
  await page.context().grantPermissions(['notifications']);
  await fakePushService(page);
  await signInViaApi(page, await createAccount(page));
  await page.goto('/settings#notifications');
  const section = page.getByRole('region', { name: 'Notifications on this device' });
  await section.getByText('Off for this device.').waitFor();
  expect(await asked(page)).toBe(0);

  // Likes are left out before turning on: the subscription carries the choice.
  await section.getByLabel('Likes').uncheck();
  const posted = page.waitForRequest(isSubscriptionCall('POST'));
  await section.getByRole('button', { name: 'Turn on notifications' }).click();
  const body = (await posted).postDataJSON();
  expect(await asked(page)).toBe(1);
  expect(body).toMatchObject({
    endpoint: ENDPOINT,
    keys: { p256dh: expect.any(String), auth: expect.any(String) },
    alerts: { follow: true, follow_request: true, like: false, comment: true, mention: true },
  });
  await section.getByText('On for this device.').waitFor();
  // It subscribed with the instance's VAPID key.
  const { publicKey } = await (await page.request.get('/api/push/key')).json();
  const usedKey = await page.evaluate(() => (window as unknown as { subscribedWith: string }).subscribedWith);
  expect(Buffer.from(usedKey, 'base64').toString('base64url')).toBe(publicKey);
  const saved = await (await page.request.get('/api/push/subscription')).json();
  expect(saved).toMatchObject({ endpoint: ENDPOINT, alerts: { like: false, mention: true } });

  // A kind changed while on is saved at once.
  const changed = page.waitForRequest(isSubscriptionCall('PUT'));
  await section.getByLabel('Mentions').uncheck();
  expect((await changed).postDataJSON().alerts).toMatchObject({ like: false, mention: false });
  await expect
    .poll(async () => (await (await page.request.get('/api/push/subscription')).json()).alerts.mention)
    .toBe(false);

  // Turning off unsubscribes here and at the server.
  const removed = page.waitForRequest(isSubscriptionCall('DELETE'));
  await section.getByRole('button', { name: 'Turn off notifications' }).click();
  await removed;
  await section.getByText('Off for this device.').waitFor();
  expect((await page.request.get('/api/push/subscription')).status()).toBe(404);
  expect(await asked(page)).toBe(1);
});

test('a refused permission says how to allow it, and nothing is sent', async ({ openPage }) => {
  const page = await openPage({ serviceWorkers: 'allow' });
  await fakePushService(page);
  await signInViaApi(page, await createAccount(page));
  await page.goto('/settings#notifications');
  const section = page.getByRole('region', { name: 'Notifications on this device' });
  await section.getByText('Off for this device.').waitFor();
  let sent = false;
  page.on('request', (request) => {
    if (isSubscriptionCall('POST')(request)) sent = true;
  });
  // Headless Chromium answers an ungranted question with "denied".
  await section.getByRole('button', { name: 'Turn on notifications' }).click();
  await section
    .getByRole('alert')
    .getByText(/Notifications are blocked for Posts in this browser/)
    .waitFor();
  expect(await asked(page)).toBe(1);
  expect(sent).toBe(false);
});
