/**
 * Followed tags (issue 73, item 2): Follow on a tag's page, its post by a stranger then in Home with
 * "You follow #tag", the reason still there after the post's page and Back, and Unfollow in
 * Settings' "Followed tags". Screenshots of the tag page, Home and the settings section at 375 and
 * 1280 px in each theme, under test-results/e2e/followed-tags/, for a person to look at, each
 * checked by axe-core.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { cardOf, createPostViaApi, signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'followed-tags');

/** A stranger's public post with the tag, and a reader who follows neither. */
async function strangersPost(page: Page, tag: string, message: string) {
  const author = await createAccount(page);
  await signInViaApi(page, author);
  await createPostViaApi(page, { message, tags: [tag], hue: 200 });
  const reader = await createAccount(page);
  await signInViaApi(page, reader);
  return reader;
}

const unique = () => `sunset${Date.now().toString(36)}`;

describe('Followed tags', () => {
  test('follow a tag from its page, see its post in Home with the reason, unfollow in Settings', async ({
    openPage,
  }) => {
    const page = await openPage(DESKTOP);
    const tag = unique();
    const message = `Over the bay ${Date.now()}`;
    await strangersPost(page, tag, message);
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect.poll(() => cardOf(page, message).count()).toBe(0);

    await page.goto(`/tagged/${tag}`);
    const follow = page.getByRole('button', { name: `Follow #${tag}` });
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('false');
    await clickHydrated(follow);
    const following = page.getByRole('button', { name: `Following #${tag}` });
    await expect.poll(() => following.getAttribute('aria-pressed')).toBe('true');
    // Read again: the server says so in the page's first load.
    await page.reload();
    await expect.poll(() => following.getAttribute('aria-pressed')).toBe('true');

    await page.goto('/home');
    const card = cardOf(page, message);
    await card.getByText(`You follow #${tag}`).waitFor();
    // The post's own page, then Back: the card still says why it is there.
    await card.locator('a[href^="/post/"]').first().click();
    await page.waitForURL('**/post/**');
    await page.getByRole('article').first().waitFor();
    await page.goBack();
    await page.waitForURL('**/home');
    await card.getByText(`You follow #${tag}`).waitFor();

    await page.goto('/settings#tags');
    const section = page.getByRole('region', { name: 'Followed tags' });
    const unfollow = section.getByRole('button', { name: `Unfollow #${tag}` });
    await clickHydrated(unfollow);
    await section.getByText('You follow no tags.').waitFor();
    await page.goto('/home');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect.poll(() => cardOf(page, message).count()).toBe(0);
  });

  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(
      `the tag page, Home and Settings at ${size} px in every theme, photographed`,
      { timeout: 300_000 },
      async ({ openPage }) => {
        mkdirSync(DIR, { recursive: true });
        for (const theme of themes) {
          const page = await openPage(device);
          await useTheme(page, theme);
          // A 30-character tag: the longest there is, beside its Follow button.
          const tag = `${unique()}${'x'.repeat(30)}`.slice(0, 30);
          const message = `Evening light on the water (${theme})`;
          await strangersPost(page, tag, message);
          expect((await page.request.put(`/api/tags/${tag}/follow`)).status()).toBe(200);

          const shots: [string, () => Promise<void>][] = [
            [
              'tag',
              async () => {
                await page.goto(`/tagged/${tag}`);
                await page.getByRole('button', { name: `Following #${tag}` }).waitFor();
              },
            ],
            [
              'home',
              async () => {
                await page.goto('/home');
                await cardOf(page, message).getByText(`You follow #${tag}`).waitFor();
              },
            ],
            [
              'settings',
              async () => {
                await page.goto('/settings#tags');
                const section = page.getByRole('region', { name: 'Followed tags' });
                await section.getByRole('button', { name: `Unfollow #${tag}` }).waitFor();
                await section.scrollIntoViewIfNeeded();
              },
            ],
          ];
          for (const [name, open] of shots) {
            await open();
            await page.waitForLoadState('networkidle');
            expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(width);
            await page.screenshot({ path: path.join(DIR, `${name}-${size}-${theme}.png`) });
            expect(await axeViolations(page), `${name} ${theme}`).toEqual([]);
          }
          await page.close();
        }
      },
    );
});
