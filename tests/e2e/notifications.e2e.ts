/**
 * Issue 21 in a real browser: the bell's badge is live (another user's like raises it without a
 * reload, taking the like back lowers it again, opening the panel lowers it), the notifications page on a phone, mentions as links, and
 * people in the navbar search; screenshots of the bell, the panel and the page in every theme.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, MOBILE, RESULTS_DIR, test, waitHydrated } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { openAppPage, themes, useTheme } from './pages';
import { createAccount, newAccount, type Account } from './users';

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const bellLabel = (page: Page) => bell(page).getAttribute('aria-label');

/** The stream opens a few seconds after the load (features/notifications/components/LiveNotifications.tsx). */
async function waitForStream(page: Page): Promise<void> {
  await page.locator('[data-testid="notification-announcer"][data-live="true"]').waitFor({ timeout: 15_000 });
}

async function signedIn(page: Page, prefix: string): Promise<Account> {
  const account = await createAccount(page, newAccount(prefix));
  await signInViaApi(page, account);
  return account;
}

describe('notifications (issue 21)', () => {
  test('the badge rises when another user likes a post, without a reload, falls when the like is taken back, and when the panel is opened', async ({
    openPage,
  }) => {
    const pageA = await openPage();
    await signedIn(pageA, 'alice');
    const post = await createPostViaApi(pageA, { message: 'Low tide at dawn', tags: ['tide'] });
    await openAppPage(pageA, '/home');
    await waitForStream(pageA);
    expect(await bellLabel(pageA)).toBe('Notifications');
    expect(await pageA.getByTestId('unread-badge').count()).toBe(0);

    const pageB = await openPage();
    const b = await signedIn(pageB, 'bruno');
    await pageB.goto(`/post/${post._id}`);
    await pageB.getByRole('button', { name: /^Like post/ }).click();
    await expect
      .poll(() => pageB.getByRole('button', { name: /^Like post/ }).getAttribute('aria-pressed'))
      .toBe('true');

    // A's page was not reloaded: the stream raised the badge and told screen readers.
    await expect.poll(() => bellLabel(pageA), { timeout: 10_000 }).toBe('Notifications, 1 unread');
    expect(await pageA.getByRole('banner').getByTestId('unread-badge').first().textContent()).toBe('1');
    await expect
      .poll(() => pageA.getByTestId('notification-announcer').textContent())
      .toBe(`New notification: ${b.username} liked your post`);

    // B takes the like back: the unread notification goes, and A's badge falls with nothing reopened.
    const likeB = pageB.getByRole('button', { name: /^Like post/ });
    await likeB.click();
    await expect.poll(() => likeB.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => bellLabel(pageA), { timeout: 10_000 }).toBe('Notifications');
    expect(await pageA.getByTestId('unread-badge').count()).toBe(0);
    // And likes it again: a new notification raises it once more.
    await likeB.click();
    await expect.poll(() => likeB.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => bellLabel(pageA), { timeout: 10_000 }).toBe('Notifications, 1 unread');

    // Opening the bell lists it (link to the post, the thumbnail) and marks it read: the badge falls.
    await bell(pageA).click();
    const panel = pageA.getByRole('region', { name: 'Notifications' });
    const item = panel.getByRole('link', { name: new RegExp(`${b.username}\\s+liked your post`) });
    await item.waitFor();
    expect(await item.getAttribute('data-unread')).toBe('true');
    expect(await item.getAttribute('href')).toBe(`/post/${post._id}`);
    expect(await item.locator('img').getAttribute('src')).toBe(post.image);
    await expect.poll(() => bellLabel(pageA)).toBe('Notifications');
    expect(await pageA.getByTestId('unread-badge').count()).toBe(0);

    // The server holds it as read: a reload shows no badge, and Escape closes the panel onto the bell.
    await pageA.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await bell(pageA).evaluate((el) => el === document.activeElement)).toBe(true);
    await openAppPage(pageA, '/home');
    await waitForStream(pageA);
    expect(await bellLabel(pageA)).toBe('Notifications');
  });

  test('on a phone the bell leads to /notifications, the menu shows the count, and the page marks them read', async ({
    openPage,
  }) => {
    const page = await openPage(MOBILE);
    const a = await signedIn(page, 'anna');
    const post = await createPostViaApi(page, { message: 'Harbour lights', tags: ['harbour'] });
    const other = await openPage();
    const b = await signedIn(other, 'bea');
    await other.request.patch(`/api/users/${a.username}/follow`, { data: {} });
    await other.request.post(`/api/posts/${post._id}/comments`, { data: { message: `So calm, @${a.username}` } });

    // The server renders the page with them (and reading its HTML marks nothing read).
    const html = await (await page.request.get('/notifications', { maxRedirects: 0 })).text();
    expect(html).toContain(`<strong>${b.username}</strong> started following you`);

    await openAppPage(page, '/home');
    await waitForStream(page);
    const link = page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
    // Named by its content since issue 68 (item 7): the visible count is part of the name.
    const named = (name: string | RegExp) => page.getByRole('banner').getByRole('link', { name, exact: true }).count();
    await expect.poll(() => named(/^Notifications, [23] unread$/)).toBe(1);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    expect(await menu.getByRole('link', { name: /^Notifications, [23] unread$/ }).count()).toBe(1);
    await page.keyboard.press('Escape');

    await link.click();
    await page.waitForURL('**/notifications');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const list = page.getByRole('main');
    await list.getByRole('link', { name: new RegExp(`^${b.username} started following you`) }).waitFor();
    expect(await list.getByRole('link', { name: new RegExp(`^${b.username} commented on your post`) }).count()).toBe(1);
    await expect.poll(() => named('Notifications')).toBe(1);
  });

  test('@mentions link to people who exist; the navbar search finds people as you type', async ({ openPage }) => {
    const page = await openPage();
    const named = await createAccount(page, newAccount('marta'));
    await signedIn(page, 'writer');
    const post = await createPostViaApi(page, {
      message: `Out with @${named.username} and @nobody_here today`,
      tags: ['friends'],
    });
    await openAppPage(page, `/post/${post._id}`);
    const mention = page.getByRole('link', { name: `@${named.username}` });
    expect(await mention.getAttribute('href')).toBe(`/profile/${named.username}`);
    expect(await page.getByRole('link', { name: '@nobody_here' }).count()).toBe(0);
    await page.getByText(`Out with @${named.username} and @nobody_here today`).waitFor();

    const search = page.getByRole('search', { name: 'Search posts by tags' });
    await waitHydrated(search.getByLabel('Add a tag to search'));
    await search.getByLabel('Add a tag to search').fill(`@${named.username.slice(0, 8).toUpperCase()}`);
    const people = search.getByRole('region', { name: 'People' });
    await people.getByRole('link', { name: new RegExp(`^${named.username}`) }).waitFor();
    await search.getByLabel('Add a tag to search').press('Enter');
    await page.waitForURL(`**/profile/${named.username}`);
  });

  test('screenshots: the bell and its panel at 1280, the page at 375 and 1280, in every theme', async ({
    openPage,
  }) => {
    const setup = await openPage();
    const a = await signedIn(setup, 'shots');
    const post = await createPostViaApi(setup, { message: 'Morning swim', tags: ['sea'] });
    const other = await openPage();
    await signedIn(other, 'fan');
    await other.request.patch(`/api/users/${a.username}/follow`, { data: {} });
    await other.request.patch(`/api/posts/${post._id}/like`, { data: {} });
    await other.request.post(`/api/posts/${post._id}/comments`, { data: { message: `Brave, @${a.username}!` } });

    for (const theme of themes) {
      // A new one for each theme, so the badges show.
      await other.request.post(`/api/posts/${post._id}/comments`, { data: { message: `Again in ${theme}!` } });
      const shot = (name: string) => path.join(RESULTS_DIR, `notifications-${name}-${theme}.png`);

      const phone = await openPage(MOBILE);
      await useTheme(phone, theme);
      await signInViaApi(phone, a);
      await openAppPage(phone, '/home');
      await waitForStream(phone);
      await phone
        .getByRole('banner')
        .getByRole('link', { name: /^Notifications, \d+ unread$/ })
        .waitFor();
      await phone.screenshot({ path: shot('bell-375') });

      const desktop = await openPage();
      await useTheme(desktop, theme);
      await signInViaApi(desktop, a);
      await openAppPage(desktop, '/home');
      await waitForStream(desktop);
      await expect.poll(() => bellLabel(desktop)).toMatch(/^Notifications, \d+ unread$/);
      await desktop.screenshot({ path: shot('bell-1280'), clip: { x: 640, y: 0, width: 640, height: 120 } });
      await bell(desktop).click();
      await desktop.getByRole('region', { name: 'Notifications' }).getByRole('listitem').first().waitFor();
      await desktop.waitForTimeout(300);
      await desktop.screenshot({ path: shot('panel-1280') });
      await openAppPage(desktop, '/notifications');
      await desktop.screenshot({ path: shot('page-1280'), fullPage: true });

      await openAppPage(phone, '/notifications');
      expect(await phone.getByRole('main').getByRole('listitem').count()).toBeGreaterThanOrEqual(4);
      await phone.screenshot({ path: shot('page-375') });
      // An open list reads in and marks what arrives: the next theme's needs these gone.
      await Promise.all([phone.context().close(), desktop.context().close()]);
    }
  }, 180_000);
});
