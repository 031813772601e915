/**
 * What a page shows from its first paint (issues 35, 37): every page, signed in (verified or not) and
 * as a visitor, loads without a console error, keeps its layout still while it starts (the navbar
 * and the verification banner are the server's HTML, kept through hydration; the unverified member,
 * as the page audit's is, also on a CPU slowed as Lighthouse's phone), and shows the unread badge in
 * that HTML; plus where the mailed links' pages and in-app links land.
 */
import type { Page } from 'playwright-core';
import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { clickHydrated, expect, MOBILE, test } from './browser';
import { signInViaApi } from './content';
import { linkIn, waitForMail } from './mail';
import { type World, buildWorld } from './pages';
import { type Account, createAccount, newAccount } from './users';

/** The issue's budget for the layout shift of a page's start-up, in the browser suite. */
const CLS_BUDGET = 0.02;

/**
 * Lighthouse's phone runs the CPU 4× slower; the audit's member is unverified (issue 37). The
 * unverified member's sweep at 375 px runs at that speed too, so chunks arrive, relative to
 * hydration, as they do on a phone.
 */
const PHONE_CPU_SLOWDOWN = 4;

/** A sweep loads some fifteen pages to network idle: more than the suite's minute on a busy machine. */
const SWEEP_TIMEOUT_MS = 240_000;

/**
 * Everything that moved since the document started (buffered `layout-shift` entries not caused by
 * input), summed: at least the page's CLS, which counts only the worst burst.
 */
const layoutShift = (page: Page) =>
  page.evaluate(() => {
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'layout-shift', buffered: true });
    // Buffered entries are in the observer's queue as soon as it observes.
    const entries = observer.takeRecords() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[];
    observer.disconnect();
    return entries.filter((e) => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0);
  });

/**
 * The answers the pages are meant to get, which Chromium logs as console errors all the same: the
 * 404 page's own status, and the refusal of the made-up token the verify page is opened with.
 */
const EXPECTED_REFUSALS = [/\/no-such-page$/, /\/api\/auth\/email\/verify$/];

/** Every console error and uncaught exception of the page, as text. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const refused = m.text().startsWith('Failed to load resource') && m.location().url;
    if (refused && EXPECTED_REFUSALS.some((url) => url.test(refused))) return;
    errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: pageerror: ${e.message}`));
  return errors;
}

/** Loads a page and waits until it has started: loaded, the network quiet, every lazy chunk in. */
async function load(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // Two frames: whatever the last chunk rendered has been laid out.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function verifiedAccount(page: Page): Promise<Account> {
  const account = await createAccount(page, newAccount('verified'));
  const token = linkIn(await waitForMail(account.email, 'Verify your email address'), '/verifyEmail').searchParams.get(
    'token',
  );
  const res = await page.request.post('/api/auth/email/verify', { data: { token } });
  if (res.status() !== 200) throw new Error(`verify failed: ${res.status()} ${await res.text()}`);
  return account;
}

let world: World;

describe('page start-up (issue 35)', () => {
  test('setup: content to look at', async ({ openPage }) => {
    world = await buildWorld(await openPage());
  });

  for (const [width, options] of [
    ['1280px', {}],
    ['375px', MOBILE],
  ] as const) {
    for (const verified of [false, true]) {
      test(
        `every page signed in (${verified ? 'verified' : 'unverified'}), ${width}${!verified && width === '375px' ? `, CPU ${PHONE_CPU_SLOWDOWN}× slower` : ''}: no console error, no layout shift, the banner in place`,
        async ({ openPage }) => {
          const page = await openPage(options);
          if (!verified && width === '375px') {
            const cdp = await page.context().newCDPSession(page);
            await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_CPU_SLOWDOWN });
          }
          const account = verified ? await verifiedAccount(page) : await createAccount(page);
          await signInViaApi(page, account);
          const errors = consoleErrors(page);
          const paths = [
            ...world.pages.filter((p) => p.signedIn).map((p) => p.path),
            `/profile/${account.username}`,
            '/resetPassword',
            '/resetPassword?token=example',
            '/verifyEmail',
            '/verifyEmail?token=example',
          ];
          const shifts: Record<string, number> = {};
          for (const path of paths) {
            await load(page, path);
            shifts[path] = Number((await layoutShift(page)).toFixed(3));
            // The banner is part of the first paint for an unverified member, and only for them (not
            // on the static 404 page, where it could only arrive after the lookup).
            const banner = page.getByRole('region', { name: 'Email verification' });
            expect(await banner.count(), path).toBe(verified || path === '/no-such-page' ? 0 : 1);
            const notifications = page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
            // On the static 404 page the signed-in header follows the lookup, which a phone's slowed
            // CPU may start after the network has gone quiet (`load`): wait for it rather than race it.
            if (width === '375px') await notifications.first().waitFor({ state: 'attached' });
            expect(await notifications.count(), path).toBe(width === '375px' ? 1 : 0);
          }
          expect(Object.entries(shifts).filter(([, shift]) => shift > CLS_BUDGET)).toEqual([]);
          expect(errors).toEqual([]);
        },
        // The slowed CPU makes the phone's sweep longer.
        !verified && width === '375px' ? 2 * SWEEP_TIMEOUT_MS : SWEEP_TIMEOUT_MS,
      );
    }
  }

  test(
    'every page as a visitor: no console error, no layout shift',
    async ({ openPage }) => {
      const page = await openPage();
      const errors = consoleErrors(page);
      const shifts: Record<string, number> = {};
      for (const path of [
        '/',
        '/login',
        '/createAccount',
        '/no-such-page',
        '/resetPassword',
        '/resetPassword?token=example',
        '/verifyEmail',
        '/verifyEmail?token=example',
      ]) {
        await load(page, path);
        shifts[path] = Number((await layoutShift(page)).toFixed(3));
      }
      expect(Object.entries(shifts).filter(([, shift]) => shift > CLS_BUDGET)).toEqual([]);
      expect(errors).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );

  test('the unread badge is in the HTML of a server-rendered page', async ({ openPage }) => {
    const page = await openPage();
    await signInViaApi(page, world.author);
    const unread = (await (await page.request.get('/api/notifications/unread')).json()).count as number;
    expect(unread).toBeGreaterThan(0);
    // Before any script runs: the badge and the bell's name are the server's.
    await page.route('**/_next/static/**', (route) => route.abort());
    await page.goto('/home');
    // The desktop bell's badge (the phones' bell link has its own, hidden at this width).
    const badge = page.getByRole('button', { name: /^Notifications/ }).getByTestId('unread-badge');
    expect(await badge.textContent()).toBe(String(unread));
    expect(await page.getByRole('button', { name: `Notifications, ${unread} unread` }).count()).toBe(1);
  });

  test('a signed-in visit to / goes to /home; a visitor gets the landing page with its navbar', async ({
    openPage,
  }) => {
    const page = await openPage();
    const response = await page.request.get('/', { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    await signInViaApi(page, await createAccount(page));
    const redirect = await page.request.get('/', { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers().location).toBe('/home');
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/home');
  });

  test('/verifyEmail without a token asks nothing; a verified member is not sent to a banner', async ({ openPage }) => {
    const page = await openPage();
    const account = await verifiedAccount(page);
    await signInViaApi(page, account);
    const verifyCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/email/verify')) verifyCalls.push(r.url());
    });
    await load(page, '/verifyEmail');
    await page.getByRole('heading', { name: 'This link is incomplete' }).waitFor();
    expect(verifyCalls).toEqual([]);
    const status = page.getByRole('status').filter({ hasText: 'Open the link from the mail again' });
    expect(await status.textContent()).toContain(EMAIL_TEXTS.alreadyVerified);
    expect(await status.textContent()).not.toContain('banner');

    await load(page, '/verifyEmail?token=example');
    const failed = page.getByRole('status').filter({ hasText: EMAIL_TEXTS.invalidLink });
    await failed.waitFor();
    expect(verifyCalls).toHaveLength(1);
    expect(await failed.textContent()).not.toContain('banner');
    expect(await page.getByRole('link', { name: 'Go to Home' }).count()).toBe(1);

    // An unverified member has the banner, and is pointed at it.
    const other = await openPage();
    await signInViaApi(other, await createAccount(other));
    await load(other, '/verifyEmail');
    const hint = other.getByRole('status').filter({ hasText: 'Open the link from the mail again' });
    expect(await hint.textContent()).toContain('banner at the top of the page');
    expect(await other.getByRole('region', { name: 'Email verification' }).count()).toBe(1);
  });

  test('an in-app link to /post/ID#comments scrolls to the comments, as opening it does', async ({ openPage }) => {
    // A short window: the comments of the post start below the fold.
    const page = await openPage({ viewport: { width: 1280, height: 500 } });
    await signInViaApi(page, world.author);
    const position = () =>
      page.evaluate(() => ({
        scrollY: Math.round(window.scrollY),
        top: Math.round(document.getElementById('comments')!.getBoundingClientRect().top),
      }));

    await load(page, `/post/${world.postId}#comments`);
    const direct = await position();
    expect(direct.scrollY).toBeGreaterThan(0);

    // The fan's comment with a mention is a notification linking to the comments.
    await load(page, '/notifications');
    // Once hydrated: a click before that is the browser's own navigation, not the in-app one tested
    // here (the suite's only failure on CI's busy machine was this step running out of time).
    await clickHydrated(page.locator(`main a[href="/post/${world.postId}#comments"]`).first());
    await page.waitForURL(`**/post/${world.postId}#comments`);
    await page.locator('#comments').waitFor();
    await expect.poll(position, { timeout: 10_000 }).toEqual(direct);
  });
});
