/**
 * Issue 68, item 3 in the browser: a shared link opened by someone not signed in. The sign-in (and
 * a sign-up on the way) returns to the page that was asked for, never to another site; a public
 * post's link shows its preview. Screenshots of the preview at 375 and 1280 px go to
 * screenshots/sharedLinks/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import { clickHydrated, DESKTOP, expect, MOBILE, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { type Account, createAccount, newAccount } from './users';

const SHOTS = path.resolve(import.meta.dirname, '../../screenshots/sharedLinks');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

/** Fills the sign-in form the page shows and sends it as a person does (once React has it). */
async function signInHere(page: Page, account: Account) {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await clickHydrated(page.getByRole('button', { name: 'Sign in' }));
}

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

describe('a shared link opened while signed out (issue 68, item 3)', () => {
  test('a private page sends the visitor to sign in, and the sign-in brings them back to it', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await page.goto('/tagged/x');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).toBe('/login?next=%2Ftagged%2Fx');
    await signInHere(page, account);
    await page.waitForURL((url) => url.pathname === '/tagged/x');
    await expect.poll(() => page.title()).toContain('#x');

    // A query stays too (the home feed's tab).
    const other = await openPage();
    await other.goto('/home?feed=everyone');
    await other.waitForURL((url) => url.pathname === '/login');
    await signInHere(other, account);
    await other.waitForURL((url) => url.pathname === '/home');
    expect(pathOf(other)).toBe('/home?feed=everyone');
  });

  test('a next that leads to another site (or back to sign-in) is ignored: the sign-in goes home', async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    for (const next of ['//evil.com', '/%5Cevil.com', 'https://evil.com', 'javascript:alert(1)', '/login']) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await signInHere(page, account);
      await page.waitForURL((url) => url.pathname === '/home');
      expect(pathOf(page), next).toBe('/home');
      await page.context().clearCookies();
    }
    // Unencoded, as a hand-made link would write it.
    await page.goto('/login?next=//evil.com');
    await signInHere(page, account);
    await page.waitForURL((url) => url.pathname === '/home');
    expect(pathOf(page)).toBe('/home');
  });

  test('a sign-up on the way keeps where to go back to', async ({ openPage }) => {
    const page = await openPage();
    const account = newAccount('shared');
    await page.goto('/tagged/x');
    await page.waitForURL((url) => url.pathname === '/login');
    await clickHydrated(page.getByRole('main').getByRole('link', { name: 'Create an account' }));
    await page.waitForURL((url) => url.pathname === '/createAccount');
    expect(pathOf(page)).toBe('/createAccount?next=%2Ftagged%2Fx');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await clickHydrated(page.getByRole('button', { name: 'Create Account' }));
    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).toBe('/login?next=%2Ftagged%2Fx');
    await signInHere(page, account);
    await page.waitForURL((url) => url.pathname === '/tagged/x');
  });

  test("a public post's link shows its preview; its sign-in link comes back to the post", async ({ openPage }) => {
    const author = await openPage();
    const ann = await createAccount(author);
    await signInViaApi(author, ann);
    const post = await createPostViaApi(author, { message: 'Low tide at the pier', tags: ['sea', 'pier'] });
    mkdirSync(SHOTS, { recursive: true });

    for (const [width, size] of [
      ['375', MOBILE],
      ['1280', DESKTOP],
    ] as const) {
      const page = await openPage(size);
      const response = await page.goto(`/post/${post._id}`);
      expect(response?.status()).toBe(200);
      expect(pathOf(page)).toBe(`/post/${post._id}`);
      await page.getByText('Low tide at the pier').waitFor();
      await page.getByRole('link', { name: ann.username }).waitFor();
      await page.getByRole('link', { name: '#sea' }).waitFor();
      await page.getByText('0 likes · 0 comments').waitFor();
      // The photo is there and loaded (the CSP lets it in).
      const photo = page.locator('img.photo');
      await expect
        .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/^http:\/\//);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `post-preview-${width}`);

      if (width === '375') {
        await page.getByRole('link', { name: 'Sign in to like and comment' }).click();
        await page.waitForURL((url) => url.pathname === '/login');
        await signInHere(page, ann);
        await page.waitForURL((url) => url.pathname === `/post/${post._id}`);
        // Signed in, the normal page: its comment box, no preview.
        await page
          .getByRole('textbox', { name: /comment/i })
          .first()
          .waitFor();
        expect(await page.locator('img.photo').count()).toBe(0);
      }
    }

    const missing = await openPage();
    const response = await missing.goto('/post/01a204b8-1716-70b8-9f9d-257fe2a8924b');
    expect(response?.status()).toBe(404);
    await missing.getByRole('heading', { name: 'This post is not available' }).waitFor();
    await missing.getByRole('link', { name: 'Sign in to see it' }).waitFor();
    await shot(missing, 'post-unavailable-1280');
  });
});
