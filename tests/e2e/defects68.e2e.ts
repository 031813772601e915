/**
 * Issue 68 in the browser: what a person sees of the fixes (errors beside their fields, a stale
 * sign-in toast, a comment sent with Enter, the phone's notifications link, the way on from a post
 * not found), at 375 and 1280 px, with axe in every theme. Screenshots go to screenshots/defects68/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { TEXTS } from '../../lib/texts';
import { axeViolations } from './axe';
import { clickHydrated, DESKTOP, expect, MOBILE, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const SHOTS = path.resolve(import.meta.dirname, '../../screenshots/defects68');
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

const sizes = [
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const;

describe('issue 68', () => {
  test('a wrong password stays beside the field; after the right one no stale toast is on /home (items 5, 8)', async ({
    openPage,
  }) => {
    const page = await openPage(MOBILE);
    const account = await createAccount(page);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('not-the-password');
    await clickHydrated(page.getByRole('button', { name: 'Sign in' }));
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    // The toast goes after its 4 s; the note beside the field stays until the next try.
    await page.getByText(TEXTS.invalidCredentials, { exact: true }).first().waitFor();
    await shot(page, 'login-refused-375');
    await expect
      .poll(() => page.getByText(TEXTS.invalidCredentials, { exact: true }).count(), { timeout: 10_000 })
      .toBe(1);
    const note = page.locator(`#${await password.evaluate((el) => el.getAttribute('aria-describedby'))}`);
    expect(await note.innerText()).toBe(TEXTS.invalidCredentials);

    await password.fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await page.getByText(TEXTS.invalidCredentials).count()).toBe(0);
  });

  test('a comment is sent with Enter; Shift+Enter is a new line (item 6)', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const post = await createPostViaApi(page, { message: 'Keyboard only', tags: ['keys'] });
    await page.goto(`/post/${post._id}`);
    const field = page.getByLabel('Write a comment');
    await expect
      .poll(() => field.evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$'))))
      .toBe(true);
    await field.click();
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await field.inputValue()).toBe('First line\nsecond line');
    await page.keyboard.press('Enter');
    await page.getByText(TEXTS.commentAdded, { exact: true }).first().waitFor();
    await page.getByRole('listitem').filter({ hasText: 'second line' }).waitFor();
    await expect.poll(() => field.inputValue()).toBe('');
  });

  test("the phone's notifications link says what it shows (item 7)", async ({ openPage }) => {
    const page = await openPage(MOBILE);
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const other = await openPage();
    const follower = await createAccount(other);
    await signInViaApi(other, follower);
    const me = (await (await other.request.get('/api/auth/getLoggedUser')).json()) as { _id: string };
    expect(
      (await other.request.patch(`/api/users/${account.username}/follow`, { data: { userId: me._id } })).ok(),
    ).toBe(true);
    await page.goto('/home');
    const link = page.getByRole('link', { name: 'Notifications, 1 unread' });
    await link.waitFor();
    // What a person sees of it is the badge (the rest is the icon and visually hidden words).
    expect(await link.getByTestId('unread-badge').innerText()).toBe('1');
    expect(await link.getByTestId('unread-badge').isVisible()).toBe(true);
    expect(await link.getAttribute('aria-label')).toBeNull();
    await shot(page, 'notifications-link-375');
  });

  test('the verify-email banner waits a day, and stays hidden across loads without a flash (item 15)', async ({
    openPage,
  }) => {
    const page = await openPage(MOBILE);
    const account = await createAccount(page);
    await signInViaApi(page, account);
    await page.goto('/home');
    const banner = page.getByRole('region', { name: 'Email verification' });
    await banner.waitFor();
    await clickHydrated(banner.getByRole('button', { name: 'Remind me tomorrow' }));
    await banner.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    // In the server's HTML, hidden before the first paint.
    expect(await banner.count()).toBe(0);
    expect(await page.locator('[data-verify-banner]').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-verify-hidden'))).toBe(true);
    // A day later it is back.
    await page.evaluate(() => localStorage.setItem('verifyBannerHiddenUntil', String(Date.now() - 1)));
    await page.reload();
    await banner.waitFor();
  });

  test('a session ended while no page was open lands on / with "Please sign in again" (item 20)', async ({
    openPage,
  }) => {
    const page = await openPage(MOBILE);
    const account = await createAccount(page);
    await signInViaApi(page, account);
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    // Signed out from another device while this one has no page open.
    await page.goto('about:blank');
    const other = await openPage();
    await signInViaApi(other, account);
    expect((await other.request.delete('/api/auth/sessions')).ok()).toBe(true);

    await page.goto('/home');
    // To sign in again, and back to the page (issue 68, item 3).
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/home');
    await page.getByText('Your session has ended. Please sign in again.').waitFor();
    await shot(page, 'session-ended-375');
    // Once: the next visit is a visitor's.
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).first().waitFor();
    expect(await page.getByText('Your session has ended. Please sign in again.').count()).toBe(0);
  });

  for (const [width, device] of sizes) {
    test(`the composer at ${width} px: the zone's words fit the screen, tags have an Add button (items 17, 19)`, async ({
      openPage,
    }) => {
      const page = await openPage(device);
      const account = await createAccount(page);
      await signInViaApi(page, account);
      await page.goto('/home');
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      if (width === '375') {
        await clickHydrated(page.getByRole('button', { name: 'Open menu' }));
        await page.getByRole('button', { name: 'Create post' }).last().click();
      } else {
        await clickHydrated(page.getByRole('banner').getByRole('button', { name: 'Create post' }));
      }
      const dialog = page.getByRole('dialog', { name: 'Create post' });
      await dialog.waitFor();
      // Since the album composer (issue 71): one "Add photos" button, and "Drag photos here, or"
      // only where a mouse can drag.
      const drag = dialog.getByText('Drag photos here, or');
      await expect.poll(() => dialog.getByRole('button', { name: 'Add photos' }).isVisible()).toBe(true);
      expect(await dialog.getByRole('button', { name: 'Add photos' }).count()).toBe(1);
      expect(await drag.isVisible()).toBe(width !== '375');

      const tag = dialog.getByLabel('Tags', { exact: true });
      await tag.fill('a'.repeat(31));
      await dialog.getByRole('button', { name: 'Add tag' }).click();
      await dialog.getByText('Tags can be at most 30 characters').waitFor();
      expect(await dialog.getByRole('alert').filter({ hasText: TEXTS.tagRequired }).count()).toBe(1);
      await tag.fill('harbour');
      await dialog.getByRole('button', { name: 'Add tag' }).click();
      await dialog.getByRole('button', { name: /^Remove tag/ }).waitFor();
      await tag.fill('b'.repeat(31));
      await tag.press('Enter');
      await dialog.getByText('Tags can be at most 30 characters').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByText('Tags can be at most 30 characters').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `composer-${width}.png`) });
    });

    test(`a post not found offers Home and the search, at ${width} px, in every theme (item 12)`, async ({
      openPage,
    }) => {
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const account = await createAccount(page);
        await signInViaApi(page, account);
        await page.goto('/post/000000000000000000000000');
        await page.getByRole('heading', { name: 'This post is not available' }).waitFor();
        const home = page.getByRole('link', { name: 'Go to Home' });
        expect(await home.getAttribute('href')).toBe('/home');
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `post-not-found-${theme}-${width}`);
        if (theme !== themes[0]) continue;
        await clickHydrated(page.getByRole('button', { name: 'Search posts and people' }));
        const search = page.getByRole('search', { name: 'Search posts by tags' });
        await expect.poll(() => search.evaluate((el) => el.contains(document.activeElement))).toBe(true);
        await shot(page, `post-not-found-search-${width}`);
      }
    });
  }
});
