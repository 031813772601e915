/**
 * Issue 68, item 32 in the browser: a display name and profile links set in Settings show on the
 * profile (the name large, `@username` under it, the links opening apart with `rel="me"`) and beside
 * the person's posts, at 375 and 1280 px; the profile header photographed in the three themes
 * (screenshots/profileNames/).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { TEXTS } from '../../lib/texts';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, expect, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { openAppPage, themes, useTheme } from './pages';
import { createAccount } from './users';

const SHOTS = path.resolve(import.meta.dirname, '../../screenshots/profileNames');
mkdirSync(SHOTS, { recursive: true });

const sizes = [
  ['375', MOBILE],
  ['1280', DESKTOP],
] as const;

const NAME = 'Ann <b>Lighthouse</b> ✨';

async function saveInSettings(page: Page): Promise<void> {
  await page.goto('/settings');
  await page.getByLabel('Display name').fill(`  ${NAME}  `);
  await page.getByLabel('Label 1').fill('Site');
  await page.getByLabel('Link or text 1').fill('https://lighthouse.example/ann');
  await page.getByLabel('Label 2').fill('Pronouns');
  await page.getByLabel('Link or text 2').fill('she/her');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/users/updateProfile'));
  await page.getByRole('button', { name: 'Save profile' }).click();
  expect((await saved).status()).toBe(200);
  await page.getByText(TEXTS.userUpdated, { exact: true }).last().waitFor();
}

describe('display name and profile links', () => {
  for (const [width, viewport] of sizes)
    test(`set in Settings, shown on the profile and beside a post, at ${width}`, async ({ openPage }) => {
      const page = await openPage(viewport);
      const account = await createAccount(page);
      await signInViaApi(page, account);
      const post = await createPostViaApi(page, { message: 'From the cliff', tags: ['sea'] });
      await saveInSettings(page);

      await openAppPage(page, `/profile/${account.username}`);
      // The name as text (no markup taken from it), large, with the username under it.
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(NAME);
      await page.getByText(`@${account.username}`, { exact: true }).first().waitFor();
      const link = page.getByRole('link', { name: 'lighthouse.example/ann' });
      expect(await link.getAttribute('href')).toBe('https://lighthouse.example/ann');
      expect(await link.getAttribute('rel')).toBe('me nofollow noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
      await page.getByText('she/her', { exact: true }).waitFor();
      // The name is text: no markup is made from it.
      expect(await page.locator('main b', { hasText: 'Lighthouse' }).count()).toBe(0);

      await openAppPage(page, `/post/${post._id}`);
      await expect.poll(() => page.locator(`#post-${post._id}-by`).innerText()).toContain(NAME);
      expect(await page.locator(`#post-${post._id}-by`).innerText()).toContain(`@${account.username}`);
    });

  for (const theme of themes)
    test(`the profile header in ${theme}, at 375 and 1280, has no axe violation`, async ({ openPage }) => {
      const setup = await openPage();
      const account = await createAccount(setup);
      await signInViaApi(setup, account);
      await setup.request.patch('/api/users/updateProfile', {
        data: {
          displayName: 'Ann Lighthouse',
          description: 'I photograph lighthouses.',
          fields: [
            { name: 'Site', value: 'https://lighthouse.example/ann' },
            { name: 'Pronouns', value: 'she/her' },
            { name: 'Elsewhere', value: 'https://a-very-long-address.example/with/a/long/path/to/see/it/wrap' },
          ],
        },
      });
      for (const [width, viewport] of sizes) {
        const page = await openPage(viewport);
        await useTheme(page, theme);
        await signInViaApi(page, account);
        await openAppPage(page, `/profile/${account.username}`);
        await page.getByRole('heading', { name: 'Ann Lighthouse' }).waitFor();
        await page
          .locator('main header')
          .first()
          .screenshot({ path: path.join(SHOTS, `header-${theme}-${width}.png`) });
        expect(await axeViolations(page)).toEqual([]);
        // Nothing wider than the page.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.viewport.width,
        );
      }
    }, 120_000);
});
