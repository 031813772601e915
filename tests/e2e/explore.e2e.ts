/**
 * Explore (issue 73): reached from the navbar on a desktop and from the sidebar on a phone, it shows
 * a trending post, its tag and a person to follow (the empty states: tests/client/explore.test.tsx);
 * an admin hides a trending tag and post on the admin page and shows them again.
 * Screenshots at 375 and 1280 px in each theme, under
 * test-results/e2e/explore/, each checked by axe-core.
 *
 * The trends are kept in memory between refreshes (`TRENDS_REFRESH_MS`): turning "discoverable"
 * off and on again (Settings' switch, through the API) makes them be worked out at the next read,
 * so no test waits for a refresh.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, expect, test } from './browser';
import { cardOf, createPostViaApi, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { type Account, createAccount, grantAdmin } from './users';

const DIR = path.join(RESULTS_DIR, 'explore');

/** Makes every instance work its trends out again at the next read (`TrendsChanged`). */
async function trendsForgotten(page: Page) {
  for (const discoverable of [false, true])
    expect((await page.request.patch('/api/users/updateProfile', { data: { discoverable } })).status()).toBe(200);
}

/** A post liked by two people and commented on by a third (it trends); the reader follows one of them. */
async function trendingPost(page: Page, message: string, tag: string): Promise<{ author: Account; reader: Account }> {
  const author = await createAccount(page);
  await signInViaApi(page, author);
  const post = await createPostViaApi(page, { message, tags: [tag], hue: 200 });
  const fans: Account[] = [];
  for (let i = 0; i < 3; i++) {
    const fan = await createAccount(page);
    fans.push(fan);
    await signInViaApi(page, fan);
    if (i < 2) expect((await page.request.patch(`/api/posts/${post._id}/like`, { data: {} })).status()).toBe(200);
    else
      expect(
        (await page.request.post(`/api/posts/${post._id}/comments`, { data: { message: 'Lovely' } })).status(),
      ).toBe(201);
  }
  // The first fan follows the author: whom the reader, following the fan, is suggested.
  await signInViaApi(page, fans[0]);
  await page.request.patch(`/api/users/${author.username}/follow`, { data: {} });
  const reader = await createAccount(page);
  await signInViaApi(page, reader);
  await page.request.patch(`/api/users/${fans[0].username}/follow`, { data: {} });
  await trendsForgotten(page);
  return { author, reader };
}

describe('Explore', () => {
  test(
    'from the navbar on a desktop: a trending post, its tag, a person to follow',
    { timeout: 180_000 },
    async ({ openPage }) => {
      const page = await openPage(DESKTOP);
      const tag = `trend${Date.now()}`;
      const message = `Lighthouse in the fog ${Date.now()}`;
      const { author } = await trendingPost(page, message, tag);
      await page.goto('/home');
      await page.getByTestId('navbar').getByRole('link', { name: 'Explore', exact: true }).click();
      await page.waitForURL('**/explore');
      await page.getByRole('heading', { name: 'Explore', level: 1 }).waitFor();
      await cardOf(page, message).waitFor();
      // In the trending tags (the post's card links its tag too).
      await page
        .getByRole('region', { name: 'Trending tags' })
        .getByRole('link', { name: new RegExp(`#${tag}`) })
        .waitFor();
      const people = page.getByRole('region', { name: 'People to follow' });
      await people.getByRole('link', { name: new RegExp(author.username) }).waitFor();
    },
  );

  test('from the sidebar on a phone', { timeout: 180_000 }, async ({ openPage }) => {
    const page = await openPage(MOBILE);
    const message = `Harbour lights ${Date.now()}`;
    await trendingPost(page, message, `phone${Date.now()}`);
    await page.goto('/home');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Explore', exact: true }).click();
    await page.waitForURL('**/explore');
    await cardOf(page, message).waitFor();
  });

  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(`the Explore page at ${size} px in every theme, photographed`, { timeout: 300_000 }, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const message = `Dunes at noon (${theme}, ${size})`;
        await trendingPost(page, message, `dunes${size}${theme}`.replace(/[^a-z0-9]/gi, ''));
        await page.goto('/explore');
        const card = cardOf(page, message);
        await card.waitFor();
        await expect
          .poll(() =>
            card
              .locator('img')
              .first()
              .evaluate((img: HTMLImageElement) => img.complete),
          )
          .toBe(true);
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(DIR, `explore-${size}-${theme}.png`), fullPage: true });
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      }
    });

  test(
    'an admin hides a trending tag and post on the admin page, out of Explore until shown again; 375 and 1280 px, every theme',
    { timeout: 300_000 },
    async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      const tag = `hideme${Date.now()}`;
      const message = `Fireworks over the bay ${Date.now()}`;
      const page = await openPage(DESKTOP);
      const { reader } = await trendingPost(page, message, tag);
      const admin = await createAccount(page);
      await grantAdmin(admin.username);
      await signInViaApi(page, admin);
      await page.goto('/admin');
      const trends = page.getByRole('region', { name: 'Trends', exact: true });
      await trends.getByRole('button', { name: `Hide #${tag} from the trends` }).click();
      await trends.getByRole('list', { name: 'Hidden from the trends' }).getByText(`#${tag}`).waitFor();
      const poster = await trends
        .getByRole('list', { name: 'Trending posts' })
        .getByRole('listitem')
        .filter({ hasText: message })
        .getByRole('button')
        .getAttribute('aria-label');
      await trends.getByRole('button', { name: poster! }).click();
      await trends
        .getByRole('list', { name: 'Hidden from the trends' })
        .getByRole('link', { name: 'A post' })
        .waitFor();

      for (const [size, device] of [
        ['375', MOBILE],
        ['1280', DESKTOP],
      ] as const)
        for (const theme of themes) {
          const shot = await openPage(device);
          await useTheme(shot, theme);
          await signInViaApi(shot, admin);
          await shot.goto('/admin');
          const panel = shot.getByRole('region', { name: 'Trends', exact: true });
          await panel.getByText(`#${tag}`).waitFor();
          await panel.scrollIntoViewIfNeeded();
          await panel.screenshot({ path: path.join(DIR, `admin-trends-${size}-${theme}.png`) });
          expect(await axeViolations(shot)).toEqual([]);
          await shot.close();
        }

      await signInViaApi(page, reader);
      await page.goto('/explore');
      await page.getByRole('heading', { name: 'Trending posts' }).waitFor();
      await page.waitForLoadState('networkidle');
      // The page comes with Explore's answer in its HTML: what is hidden is not in it.
      expect(await cardOf(page, message).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'Trending tags' }).getByText(`#${tag}`).count()).toBe(0);

      await signInViaApi(page, admin);
      await page.goto('/admin');
      const again = page.getByRole('region', { name: 'Trends', exact: true });
      await again.getByRole('button', { name: 'Show a post in the trends again' }).click();
      await again.getByRole('button', { name: poster! }).waitFor();
      await again.getByRole('button', { name: `Show #${tag} in the trends again` }).click();
      await again.getByRole('button', { name: `Hide #${tag} from the trends` }).waitFor();
      await signInViaApi(page, reader);
      await page.goto('/explore');
      await cardOf(page, message).waitFor();
      await page
        .getByRole('region', { name: 'Trending tags' })
        .getByRole('link', { name: new RegExp(`#${tag}`) })
        .waitFor();
    },
  );
});
