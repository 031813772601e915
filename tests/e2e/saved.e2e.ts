/**
 * Saved posts (issue 73, item 1): a post saved from the feed is on the Saved page (reached from the
 * account menu), and unsaved there it leaves it. Screenshots of the Saved page at 375 and 1280 px in
 * each theme, under test-results/e2e/saved/, for a person to look at, each checked by axe-core.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { cardOf, createPostViaApi, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'saved');

/** A post by someone the page's person follows, so it is in their home feed. */
async function followedPost(page: Page, message: string) {
  const author = await createAccount(page);
  await signInViaApi(page, author);
  const post = await createPostViaApi(page, { message, tags: ['saved'], hue: 30 });
  const reader = await createAccount(page);
  await signInViaApi(page, reader);
  expect((await page.request.patch(`/api/users/${author.username}/follow`)).status()).toBe(200);
  return { author, reader, post };
}

describe('Saved posts', () => {
  test('save from the feed, find it on the Saved page, unsave it there', async ({ openPage }) => {
    const page = await openPage(DESKTOP);
    const message = `Keep this one ${Date.now()}`;
    await followedPost(page, message);
    await page.goto('/home');
    const card = cardOf(page, message);
    const save = card.getByRole('button', { name: 'Save', exact: true });
    await expect.poll(() => save.getAttribute('aria-pressed')).toBe('false');
    await clickHydrated(save);
    const saved = card.getByRole('button', { name: 'Saved', exact: true });
    await expect.poll(() => saved.getAttribute('aria-pressed')).toBe('true');

    // From the account menu to the Saved page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByTestId('navbar').getByRole('link', { name: 'Saved', exact: true }).click();
    await page.waitForURL('**/saved');
    await page.getByRole('heading', { name: 'Saved', level: 1 }).waitFor();
    const savedCard = cardOf(page, message);
    await expect
      .poll(() => savedCard.getByRole('button', { name: 'Saved', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');

    // Unsaved there: the button says so, and the page read again has nothing saved.
    await savedCard.getByRole('button', { name: 'Saved', exact: true }).click();
    await expect
      .poll(() => savedCard.getByRole('button', { name: 'Save', exact: true }).getAttribute('aria-pressed'))
      .toBe('false');
    await page.reload();
    await page.getByRole('heading', { name: 'Nothing saved yet' }).waitFor();
    await page.getByText('Press the bookmark under a post to save it here.').waitFor();
    // And the feed shows it unsaved.
    await page.goto('/home');
    await expect
      .poll(() => cardOf(page, message).getByRole('button', { name: 'Save', exact: true }).getAttribute('aria-pressed'))
      .toBe('false');
  });

  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(`the Saved page at ${size} px in every theme, photographed`, { timeout: 240_000 }, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const message = `A saved harbour at dusk (${theme})`;
        const { post } = await followedPost(page, message);
        // Empty first: the state that says what to do.
        await page.goto('/saved');
        await page.getByRole('heading', { name: 'Nothing saved yet' }).waitFor();
        await page.screenshot({ path: path.join(DIR, `saved-empty-${size}-${theme}.png`) });
        expect(await axeViolations(page)).toEqual([]);

        expect((await page.request.put(`/api/posts/${post._id}/save`)).status()).toBe(200);
        await page.goto('/saved');
        const card = cardOf(page, message);
        await card.getByRole('button', { name: 'Saved', exact: true }).waitFor();
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
        await page.screenshot({ path: path.join(DIR, `saved-${size}-${theme}.png`) });
        // WCAG 2.2 A/AA in each theme, the pressed toggle's colour included.
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      }
    });
});
