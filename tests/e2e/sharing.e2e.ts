/**
 * Issue 68, items 14 and 27–30: Share, double-tap to like, who likes a post, Follow back from a
 * notification, Follow in a profile's lists, the profile's tab in the address, and the empty own
 * profile's Create post.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import type { Post } from '../../lib/types';
import { DESKTOP, MOBILE, baseURL, clickHydrated, expect, test } from './browser';
import { cardOf, createPostViaApi, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { type Account, createAccount } from './users';

const SHOTS = path.resolve(import.meta.dirname, '../../screenshots/sharing');
mkdirSync(SHOTS, { recursive: true });

type Open = (options?: Parameters<import('playwright-core').Browser['newContext']>[0]) => Promise<Page>;

const WIDTHS = [
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const;

/** A signed-in page of a new account. */
async function member(openPage: Open, options: Parameters<Open>[0] = {}): Promise<{ page: Page; account: Account }> {
  const page = await openPage(options);
  const account = await createAccount(page);
  await signInViaApi(page, account);
  return { page, account };
}

const follow = async (page: Page, username: string) =>
  expect((await page.request.patch(`/api/users/${username}/follow`)).status()).toBe(200);
const postOf = async (page: Page, id: string): Promise<Post> => (await page.request.get(`/api/posts/${id}`)).json();
describe('Share (item 27)', () => {
  for (const [width, size] of WIDTHS) {
    test(`at ${width}: a post's and a profile's Share copies the absolute link and says so`, async ({ openPage }) => {
      const { page, account } = await member(openPage, { ...size, permissions: ['clipboard-read', 'clipboard-write'] });
      // The copy path: as in a desktop browser without a share sheet.
      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
      });
      const post = await createPostViaApi(page, { message: `Share me ${width}`, tags: ['share'] });
      await page.goto('/home');
      const card = cardOf(page, `Share me ${width}`);
      await clickHydrated(card.getByRole('button', { name: `Share post by ${account.username}` }));
      await page.getByText('Link copied', { exact: true }).last().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL()}/post/${post._id}`);

      await page.goto(`/profile/${account.username}`);
      await clickHydrated(page.getByRole('button', { name: 'Share your profile' }));
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()))
        .toBe(`${baseURL()}/profile/${account.username}`);
    });
  }

  test('where the browser has a share sheet, Share opens it with the absolute link', async ({ openPage }) => {
    const { page, account } = await member(openPage, MOBILE);
    await page.addInitScript(() => {
      const shared: unknown[] = [];
      (window as unknown as { shared: unknown[] }).shared = shared;
      Object.defineProperty(Navigator.prototype, 'share', {
        value: (data: unknown) => {
          shared.push(data);
          return Promise.resolve();
        },
        configurable: true,
      });
    });
    const post = await createPostViaApi(page, { message: 'Share sheet', tags: ['share'] });
    await page.goto('/home');
    await clickHydrated(cardOf(page, 'Share sheet').getByRole('button', { name: /^Share post by/ }));
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: unknown[] }).shared))
      .toEqual([{ title: `Post by ${account.username}`, url: `${baseURL()}/post/${post._id}` }]);
  });
});

describe('double-tap to like (item 28)', () => {
  for (const [width, size] of WIDTHS) {
    test(`at ${width}: a double click on a feed photo likes it with a heart; again keeps it liked; one click opens the post`, async ({
      openPage,
    }) => {
      const author = await member(openPage);
      const post = await createPostViaApi(author.page, { message: `Double tap ${width}`, tags: ['tap'] });
      const { page } = await member(openPage, size);
      await follow(page, author.account.username);
      await page.goto('/home');
      const card = cardOf(page, `Double tap ${width}`);
      const photo = card.locator(`a[href="/post/${post._id}"]`);
      await photo.waitFor();
      // The heart is brief: a watcher notes that it was drawn.
      await page.evaluate(() => {
        const seen = { heart: false };
        (window as unknown as { seen: typeof seen }).seen = seen;
        new MutationObserver(() => {
          if (document.querySelector('[data-like-heart]')) seen.heart = true;
        }).observe(document.body, { childList: true, subtree: true });
      });
      await expect
        .poll(() => photo.evaluate((a) => Object.keys(a).some((k) => k.startsWith('__reactProps$'))))
        .toBe(true);
      await photo.dblclick();
      const like = card.getByRole('button', { name: /^Like post/ });
      await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => like.getAttribute('aria-label')).toMatch(/, 1 like$/);
      expect(await page.evaluate(() => (window as unknown as { seen: { heart: boolean } }).seen.heart)).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/home');
      expect(await postOf(page, post._id)).toMatchObject({ likesCount: 1, myReaction: 'like' });

      // Again on a liked post: still liked (no toggle).
      await photo.dblclick();
      await expect.poll(async () => (await postOf(page, post._id)).myReaction).toBe('like');
      expect((await postOf(page, post._id)).likesCount).toBe(1);
      expect(await like.getAttribute('aria-pressed')).toBe('true');

      // One click still opens the post.
      await photo.click();
      await page.waitForURL(`**/post/${post._id}`);
    });
  }
});

describe('who likes a post (item 29)', () => {
  for (const [width, size] of WIDTHS) {
    test(`at ${width}: the likes count opens the likers, newest first, and Follow follows`, async ({ openPage }) => {
      const author = await member(openPage);
      const post = await createPostViaApi(author.page, { message: `Liked by two ${width}`, tags: ['likers'] });
      const first = await member(openPage);
      const second = await member(openPage);
      for (const liker of [first, second])
        expect((await liker.page.request.patch(`/api/posts/${post._id}/like`)).status()).toBe(200);

      const { page } = await member(openPage, size);
      await follow(page, author.account.username);
      await page.goto('/home');
      const card = cardOf(page, `Liked by two ${width}`);
      await clickHydrated(card.getByRole('button', { name: '2 likes, see who likes this' }));
      const dialog = page.getByRole('dialog', { name: 'Likes' });
      await dialog.waitFor();
      const people = dialog.getByRole('listitem');
      await expect.poll(() => people.count()).toBe(2);
      expect(await people.nth(0).textContent()).toContain(second.account.username);
      expect(await people.nth(1).textContent()).toContain(first.account.username);

      await dialog.getByRole('button', { name: `Follow ${first.account.username}` }).click();
      await dialog.getByRole('button', { name: `Following ${first.account.username}` }).waitFor();
      const profile = await (await page.request.get(`/api/users/${first.account.username}`)).json();
      expect(profile.user.followedByMe).toBe(true);

      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  }
});

describe('Follow back and Follow in lists (items 30 and 14)', () => {
  test('a "started following you" notification has Follow back, which becomes Following', async ({ openPage }) => {
    const followed = await member(openPage);
    const fan = await member(openPage);
    await follow(fan.page, followed.account.username);
    const page = followed.page;
    await page.goto('/notifications');
    const row = page.getByRole('listitem').filter({ hasText: 'started following you' });
    await clickHydrated(row.getByRole('button', { name: `Follow back ${fan.account.username}` }));
    await row.getByRole('button', { name: `Following ${fan.account.username}` }).waitFor();
    const profile = await (await page.request.get(`/api/users/${fan.account.username}`)).json();
    expect(profile.user.followedByMe).toBe(true);
    // A reload reads it from the server: still Following.
    await page.reload();
    await row.getByRole('button', { name: `Following ${fan.account.username}` }).waitFor();
  });

  for (const [width, size] of WIDTHS) {
    test(`at ${width}: the profile's tab is in the address (reload and Back keep it); the lists have Follow; no "caught up" under the grid`, async ({
      openPage,
    }) => {
      const star = await member(openPage);
      await createPostViaApi(star.page, { message: 'Grid one', tags: ['grid'] });
      const fan = await member(openPage);
      await follow(fan.page, star.account.username);
      const { page } = await member(openPage, size);

      await page.goto(`/profile/${star.account.username}`);
      await page.locator(`a[href^="/post/"]`).first().waitFor();
      expect(await page.getByText('You are all caught up').count()).toBe(0);

      await clickHydrated(page.getByRole('button', { name: 'Followers', exact: true }));
      await page.waitForURL((url) => url.searchParams.get('tab') === 'followers');
      const followButton = page.getByRole('button', { name: `Follow ${fan.account.username}` });
      await followButton.waitFor();
      await page.reload();
      expect(await page.getByRole('button', { name: 'Followers', exact: true }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await clickHydrated(followButton);
      await page.getByRole('button', { name: `Following ${fan.account.username}` }).waitFor();
      expect((await (await page.request.get(`/api/users/${fan.account.username}`)).json()).user.followedByMe).toBe(
        true,
      );

      // To the follower's profile and Back: the followers tab again.
      await page.getByRole('link', { name: fan.account.username }).first().click();
      await page.waitForURL(`**/profile/${fan.account.username}`);
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('tab') === 'followers');
      await expect
        .poll(() => page.getByRole('button', { name: 'Followers', exact: true }).getAttribute('aria-pressed'))
        .toBe('true');
      await page.getByRole('button', { name: `Following ${fan.account.username}` }).waitFor();

      // Following: its own address; Posts is the plain one.
      await page.getByRole('button', { name: 'Following', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('tab') === 'following');
      await page.getByRole('button', { name: /Posts/ }).click();
      await page.waitForURL((url) => url.search === '');
    });
  }

  for (const [width, size] of WIDTHS) {
    test(`at ${width}: the empty own profile's Create post opens the composer`, async ({ openPage }) => {
      const { page, account } = await member(openPage, size);
      await page.goto(`/profile/${account.username}`);
      await page.getByRole('heading', { name: 'No posts yet' }).waitFor();
      const create = page.getByRole('main').getByRole('button', { name: 'Create post' });
      await clickHydrated(create);
      await page.getByRole('dialog', { name: 'Create post' }).waitFor();
    });
  }
});

describe('screenshots', () => {
  for (const [width, size] of WIDTHS) {
    test(`at ${width}, in every theme: a card with Share and the likes count, and the likers (no axe violations)`, async ({
      openPage,
    }) => {
      const author = await member(openPage);
      await createPostViaApi(author.page, { message: `Look at this light ${width}`, tags: ['light'] });
      const post = (await (await author.page.request.get(`/api/users/${author.account.username}/posts`)).json())[0];
      for (let i = 0; i < 3; i += 1) {
        const liker = await member(openPage);
        expect((await liker.page.request.patch(`/api/posts/${post._id}/like`)).status()).toBe(200);
      }
      const { page } = await member(openPage, size);
      await follow(page, author.account.username);
      for (const theme of themes) {
        await useTheme(page, theme);
        await page.goto('/home');
        const card = cardOf(page, `Look at this light ${width}`);
        await clickHydrated(card.getByRole('button', { name: /^Like post/ }));
        await expect
          .poll(() => card.getByRole('button', { name: /^Like post/ }).getAttribute('aria-pressed'))
          .toBe('true');
        expect(await axeViolations(page)).toEqual([]);
        await card.screenshot({ path: path.join(SHOTS, `card-${theme}-${width}.png`) });
        await card.getByRole('button', { name: '4 likes, see who likes this' }).click();
        const dialog = page.getByRole('dialog', { name: 'Likes' });
        await expect.poll(() => dialog.getByRole('listitem').count()).toBe(4);
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, `likers-${theme}-${width}.png`) });
        await dialog.getByRole('button', { name: 'Close' }).click();
        // Back to three likes for the next theme.
        await card.getByRole('button', { name: /^Like post/ }).click();
        await expect
          .poll(() => card.getByRole('button', { name: /^Like post/ }).getAttribute('aria-pressed'))
          .toBe('false');
      }
    }, 300_000);
  }
});
