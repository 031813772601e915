/**
 * Back from a post keeps your place (issue 68, item 1): the home feed's tab is in the address, the
 * loaded pages of a list stay in the store, and the scroll position comes back. Real clicks, the
 * browser's own Back (`page.goBack()`), at 1280 and 375 px, on Everyone, Following and a profile's
 * grid; a reload keeps the tab.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Page, request } from 'playwright-core';
import { baseURL, clickHydrated, DESKTOP, expect, MOBILE, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { type Account, createAccount, newAccount } from './users';

/** More than two pages of 12. */
const POSTS = 30;
const SHOTS = path.resolve(import.meta.dirname, '../../screenshots/backRestores');

let api: APIRequestContext;
let author: Account;

beforeAll(async () => {
  api = await request.newContext({ baseURL: baseURL() });
  author = await createAccount({ request: api }, newAccount('back'));
  await signInViaApi({ request: api }, author);
  // Three at a time: each is an upload through the image pipeline (at most 4 queued per person), then the post.
  for (let i = 0; i < POSTS; i += 3)
    await Promise.all(
      Array.from({ length: Math.min(3, POSTS - i) }, (_, j) =>
        createPostViaApi({ request: api }, { message: `Back test ${i + j}`, tags: ['backtest'], hue: (i + j) * 23 }),
      ),
    );
});
afterAll(() => api?.dispose());

/** A reader who follows the author, signed in in the page's context. */
async function reader(page: Page): Promise<Account> {
  const account = await createAccount(page);
  await signInViaApi(page, account);
  const me = (await (await page.request.get('/api/auth/getLoggedUser')).json()) as { _id: string };
  const res = await page.request.patch(`/api/users/${author.username}/follow`, { data: { userId: me._id } });
  if (!res.ok()) throw new Error(`follow failed: ${res.status()} ${await res.text()}`);
  return account;
}

/** The posts a list has loaded: the feed's cards, or the grid's tiles. */
const loadedCount = (page: Page, layout: 'feed' | 'grid') =>
  layout === 'feed' ? page.locator('main article').count() : page.locator('main ul li a[href^="/post/"]').count();

/** The link that opens the post `index` of the list (the card's image, or the grid's tile). */
const postLinks = (page: Page) => page.locator('main a[href^="/post/"]:not([href*="#"])');

/** Scrolls down until the list has loaded more than two pages. */
async function scrollPastTwoPages(page: Page, layout: 'feed' | 'grid') {
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return loadedCount(page, layout);
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(24);
}

/** The box of `href`'s link, relative to the viewport, and whether it is in view. */
const inView = (page: Page, href: string) =>
  page.evaluate((href) => {
    const link = document.querySelector(`main a[href="${href}"]`);
    if (!link) return false;
    const box = link.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
  }, href);

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/**
 * From the list on screen: loads past two pages, opens a post far down with a click, goes Back,
 * and checks that the same posts are loaded, the opened one is in view and the scroll is where it was.
 */
async function openFarPostAndComeBack(page: Page, layout: 'feed' | 'grid', name: string) {
  await scrollPastTwoPages(page, layout);
  const links = postLinks(page);
  const count = await loadedCount(page, layout);
  // Far down: past the first two pages.
  const target = links.nth(Math.min(count - 2, 25));
  const href = (await target.getAttribute('href'))!;
  await target.scrollIntoViewIfNeeded();
  // The list may still grow below while the link settles: take the position once it holds.
  const before = await page.evaluate(() => window.scrollY);
  const loaded = await loadedCount(page, layout);
  expect(before).toBeGreaterThan(layout === 'feed' ? 1000 : 300);
  await target.click();
  await page.waitForURL((url) => url.pathname === href);
  await page.getByRole('heading', { name: /^Post by / }).waitFor();

  await page.goBack();
  await page.waitForURL((url) => url.pathname !== href);
  await expect.poll(() => inView(page, href)).toBe(true);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before - 60);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - before)).toBeLessThan(60);
  // Every post loaded before is there again (page one alone would be 12); with the opened post near
  // the end, the list may go on to load its next page once back (Everyone gets other files' posts).
  expect(await loadedCount(page, layout)).toBeGreaterThanOrEqual(loaded);
  await shot(page, name);
  return { href, before, loaded };
}

const pressed = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Feed' }).getByRole('button', { name }).getAttribute('aria-pressed');

for (const [width, options] of [
  [1280, DESKTOP],
  [375, MOBILE],
] as const) {
  describe(`Back keeps your place (${width} px)`, () => {
    test('Everyone: the tab, the posts loaded and the scroll come back; a reload keeps the tab', async ({
      openPage,
    }) => {
      const page = await openPage(options);
      await reader(page);
      await page.goto('/home');
      const entries = await page.evaluate(() => history.length);
      await clickHydrated(page.getByRole('group', { name: 'Feed' }).getByRole('button', { name: 'Everyone' }));
      await page.waitForURL((url) => url.pathname === '/home' && url.search === '?feed=everyone');
      await expect.poll(() => pressed(page, 'Everyone')).toBe('true');
      // Switching tabs replaced the address: no history entry for the tab.
      expect(await page.evaluate(() => history.length)).toBe(entries);

      await openFarPostAndComeBack(page, 'feed', `everyone-${width}`);
      expect(new URL(page.url()).search).toBe('?feed=everyone');
      expect(await pressed(page, 'Everyone')).toBe('true');

      // A reload starts at the top with page one, on the same tab, rendered so by the server.
      const html = await (await page.request.get('/home?feed=everyone')).text();
      expect(html).toMatch(/aria-pressed="true"[^>]*>Everyone</);
      await page.reload();
      expect(await pressed(page, 'Everyone')).toBe('true');
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await clickHydrated(page.getByRole('group', { name: 'Feed' }).getByRole('button', { name: 'Following' }));
      await expect.poll(() => pressed(page, 'Everyone')).toBe('false');
      await page.waitForURL((url) => url.pathname === '/home' && url.search === '');
    });

    test('Following: the posts loaded and the scroll come back', async ({ openPage }) => {
      const page = await openPage(options);
      await reader(page);
      await page.goto('/home');
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      await openFarPostAndComeBack(page, 'feed', `following-${width}`);
      expect(new URL(page.url()).search).toBe('');
      expect(await pressed(page, 'Following')).toBe('true');
    });

    test('a profile grid: the posts loaded and the scroll come back', async ({ openPage }) => {
      const page = await openPage(options);
      await reader(page);
      await page.goto(`/profile/${author.username}`);
      await page.getByRole('heading', { name: author.username }).first().waitFor();
      await openFarPostAndComeBack(page, 'grid', `profile-${width}`);
    });
  });
}
