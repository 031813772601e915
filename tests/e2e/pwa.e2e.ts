/**
 * The installed app (issue 74): the manifest and installability, the offline shell served by the
 * service worker, sign-out emptying the worker's personal caches, and the share target opening the
 * composer with the shared image (signing in first).
 */
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Page, chromium } from 'playwright-core';
import { type PageFixtures, baseURL, clickHydrated, expect, test } from './browser';
import { CHROMIUM_FLAGS } from './chromium';
import { makeImage, signInViaApi } from './content';
import { createAccount, logoutFromMenu } from './users';

const WITH_WORKER = { serviceWorkers: 'allow' } as const;

/** Waits until the app's worker is active and controls the page (it claims pages as it activates). */
async function workerControls(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

/** A new person's page on /home, signed in, that the app's worker controls. */
async function signedInUnderWorker(openPage: PageFixtures['openPage']) {
  const page = await openPage(WITH_WORKER);
  const account = await createAccount(page);
  await signInViaApi(page, account);
  await page.goto('/home');
  await workerControls(page);
  return { page, account };
}

/** An image waiting for the composer, as the share target keeps it. */
async function keepSharedImage(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const cache = await caches.open('posts-shared');
    await cache.put('/shared-image', new Response(new Blob(['x'], { type: 'image/png' })));
  });
}

describe('the installable app', () => {
  test('has a valid manifest, and Chromium finds the page installable', async () => {
    // A profile on disk: Chromium never installs from an incognito context (`in-incognito`), which
    // the suite's contexts are.
    const profile = mkdtempSync(path.join(tmpdir(), 'posts-e2e-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
      baseURL: baseURL(),
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/');
      await workerControls(page);
      const cdp = await context.newCDPSession(page);
      const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[] };
      expect(manifest.errors).toEqual([]);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test('serves the manifest with its icons and share target', async ({ openPage }) => {
    const page = await openPage();
    const served = await (await page.request.get('/manifest.webmanifest')).json();
    expect(served).toMatchObject({ start_url: '/home', display: 'standalone' });
    expect(served.share_target).toMatchObject({ action: '/share', method: 'POST', enctype: 'multipart/form-data' });
    const purposes = served.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`);
    expect(purposes).toEqual(['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']);
    for (const icon of served.icons)
      expect((await page.request.get(icon.src)).headers()['content-type']).toBe('image/png');
  });

  test('a reload without a network shows the offline shell, not an error page', async ({ openPage }) => {
    const { page } = await signedInUnderWorker(openPage);
    await page.context().setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'You are offline' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/home');
    // Nothing of the person's was kept: the worker's caches hold the build's files and the shell only.
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(kept).toContain('/offline');
    expect(kept).toContain('/icons/maskable-192.png');
    expect(
      kept.filter((path) => path !== '/offline' && !path.startsWith('/icons/') && !path.startsWith('/_next/static/')),
    ).toEqual([]);
    // In the person's language (issue 75): the shell's script reads the `lang` cookie.
    await page.context().addCookies([{ name: 'lang', value: 'ar', url: baseURL() }]);
    await page.reload();
    await page.getByRole('heading', { name: 'أنت غير متصل بالإنترنت' }).waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.getByRole('link', { name: 'حاول مرة أخرى' }).count()).toBe(1);
    await page.context().setOffline(false);
  });

  test('a link followed without a network shows the offline shell, not an error page (issue 68, #24)', async ({
    openPage,
  }) => {
    const { page, account } = await signedInUnderWorker(openPage);
    const profileLink = page.getByRole('navigation').getByRole('link', { name: 'Profile', exact: true });
    // A link of the app's own router (next/link), not a plain one: the router loads the page's data
    // itself and, failing, falls back to a full load of the address, which the worker answers.
    expect(await page.evaluate(() => typeof (window as { next?: { router?: unknown } }).next?.router)).toBe('object');
    await page.context().setOffline(true);
    await clickHydrated(profileLink);
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    expect(page.url()).toBe(new URL(`/profile/${account.username}`, baseURL()).href);
    // Back online, the shell loads the page it stands for by itself.
    await page.context().setOffline(false);
    await page.getByRole('heading', { name: account.username }).first().waitFor();
  });

  test('signing out empties what the worker kept for the person', async ({ openPage }) => {
    const { page } = await signedInUnderWorker(openPage);
    await keepSharedImage(page);
    expect(await cacheNames(page)).toContain('posts-shared');
    await logoutFromMenu(page);
    await expect.poll(() => cacheNames(page)).not.toContain('posts-shared');
    // The build's files stay: the offline shell keeps working for the next person.
    expect((await cacheNames(page)).some((name) => name.startsWith('posts-shell-'))).toBe(true);
  });

  test('revoking this browser’s own session empties what the worker kept, another session’s does not', async ({
    openPage,
  }) => {
    const { page, account } = await signedInUnderWorker(openPage);
    // The same person signed in on another device.
    await signInViaApi(await openPage(), account);
    await keepSharedImage(page);
    const sessions = (await (await page.request.get('/api/auth/sessions')).json()) as {
      id: string;
      current: boolean;
    }[];
    const own = sessions.find((session) => session.current)!.id;
    const other = sessions.find((session) => !session.current)!.id;
    // Settings' "Sign out" of a session, from the page (through the worker), and the worker's question after it.
    const revoke = async (id: string) => {
      const asked = page.context().waitForEvent('response', {
        predicate: (response) =>
          response.request().serviceWorker() !== null &&
          response.request().method() === 'GET' &&
          new URL(response.url()).pathname === '/api/auth/sessions',
      });
      const status = await page.evaluate(
        async (path) => (await fetch(path, { method: 'DELETE' })).status,
        `/api/auth/sessions/${id}`,
      );
      expect(status).toBe(200);
      return (await asked).status();
    };
    expect(await revoke(other)).toBe(200);
    expect(await page.evaluate(async () => (await caches.open('posts-shared')).keys())).toHaveLength(1);
    expect(await revoke(own)).toBe(401);
    await expect.poll(() => cacheNames(page)).not.toContain('posts-shared');
    expect((await cacheNames(page)).some((name) => name.startsWith('posts-shell-'))).toBe(true);
  });

  test('an image shared from another app opens the composer with it, after signing in', async ({ openPage }) => {
    const page = await openPage(WITH_WORKER);
    const account = await createAccount(page);
    await page.goto('/');
    await workerControls(page);
    // What the system's share sheet does: a navigation that POSTs the manifest's form to /share.
    const png = (await makeImage('png', 640, 480)).toString('base64');
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const input = document.createElement('input');
      input.type = 'file';
      input.name = 'image';
      const files = new DataTransfer();
      files.items.add(new File([bytes], 'holiday.png', { type: 'image/png' }));
      input.files = files.files;
      const form = document.createElement('form');
      form.method = 'post';
      form.enctype = 'multipart/form-data';
      form.action = '/share';
      form.append(input);
      document.body.append(form);
      form.submit();
    }, png);
    // Not signed in: the sign-in page, which returns to the composer's address.
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/home?shared=image');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await clickHydrated(page.getByRole('button', { name: 'Sign in' }));
    const editor = page.getByRole('dialog', { name: 'Create post' });
    await editor.waitFor();
    // The image was uploaded as a picked one is: its preview is the server's copy.
    await expect
      .poll(() => editor.locator('img').first().getAttribute('src'), { timeout: 20_000 })
      .toMatch(/\/media\//);
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(await cacheNames(page)).toContain('posts-shared');
    expect(await page.evaluate(async () => (await caches.open('posts-shared')).keys())).toHaveLength(0);
  });

  test('a subscription the push service replaced moves to the new one at the server, its kinds kept', async ({
    openPage,
  }) => {
    const { page } = await signedInUnderWorker(openPage);
    const keys = () => ({
      p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    });
    const saved = await page.request.post('/api/push/subscription', {
      data: {
        endpoint: 'https://push.example.net/send/old',
        keys: keys(),
        alerts: { like: false },
        policy: 'followed',
      },
    });
    expect(saved.status()).toBe(201);
    // The access token lapsed meanwhile: the worker refreshes it, as the app's client would.
    await page.context().clearCookies({ name: 'access_token' });
    const replacement = { endpoint: 'https://push.example.net/send/new', expirationTime: null, keys: keys() };
    // What the browser does when the push service replaces its subscription (Firefox on expiry;
    // Chromium never does it by itself): the event, with the new subscription.
    const [worker] = page.context().serviceWorkers();
    await worker!.evaluate((json) => {
      const Extendable = (globalThis as unknown as { ExtendableEvent: typeof Event }).ExtendableEvent;
      const event = new Extendable('pushsubscriptionchange');
      Object.defineProperty(event, 'newSubscription', { value: { toJSON: () => json } });
      // A made-up event may not extend its life (waitUntil throws): the work has started by then.
      try {
        globalThis.dispatchEvent(event);
      } catch {
        // Reported in the worker; the subscription's move goes on.
      }
    }, replacement);
    const current = async () => {
      const response = await page.request.get('/api/push/subscription');
      return response.ok() ? response.json() : null;
    };
    await expect.poll(async () => (await current())?.endpoint).toBe(replacement.endpoint);
    expect(await current()).toMatchObject({
      alerts: { follow: true, follow_request: true, like: false, comment: true, mention: true },
      policy: 'followed',
    });
  });

  test('the worker shows a push with its actor and photo, one per notification', async ({ openPage }) => {
    const page = await openPage(WITH_WORKER);
    await page.context().grantPermissions(['notifications']);
    await page.goto('/');
    await workerControls(page);
    const cdp = await page.context().newCDPSession(page);
    const registered = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registered;
    const origin = new URL(page.url()).origin;
    const payload = {
      title: 'alice commented on your post',
      body: 'What a view!',
      icon: `${origin}/media/alice.webp`,
      image: `${origin}/media/post.webp`,
      notification_id: 'n-1',
      notification_type: 'comment',
      url: `${origin}/post/p-1`,
    };
    // The decrypted payload as the push service hands it to the worker (the server's JSON, docs/API.md).
    for (const body of ['What a view!', 'What a view! (edited)'])
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId,
        data: JSON.stringify({ ...payload, body }),
      });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          icon: n.icon,
          image: (n as Notification & { image?: string }).image,
          tag: n.tag,
          url: (n.data as { url: string }).url,
        })),
      );
    // The same notification pushed again replaces the first (its tag).
    await expect.poll(async () => (await shown()).map((n) => n.body)).toEqual(['What a view! (edited)']);
    expect((await shown())[0]).toEqual({
      title: payload.title,
      body: 'What a view! (edited)',
      icon: payload.icon,
      image: payload.image,
      tag: 'n-1',
      url: payload.url,
    });
  });
});
