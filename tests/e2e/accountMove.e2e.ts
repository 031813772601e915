/**
 * Moving an account (issue 76, items 3 and 4) in Chromium, at 375 and 1280 px in every theme: the
 * old account's move is refused while the new one does not name it (the server's message); the new
 * account adds the old one as an alias in Settings' "Move in and out"; the old account moves after
 * confirming; its profile says where it went, with a link, and its composer takes no post.
 * Screenshots under test-results/e2e/account-move/, for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, RESULTS_DIR, clickHydrated, expect, test } from './browser';
import { signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'account-move');

async function movingSection(page: Page) {
  // Another person signed in: the page is loaded anew (a hash alone would not reload it).
  await page.goto('about:blank');
  await page.goto('/settings#moving');
  const section = page.getByRole('region', { name: 'Move in and out' });
  await section.waitFor();
  return section;
}

describe('moving an account, in the browser', () => {
  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(
      `adds an alias, moves, shows the moved profile at ${size} px in every theme`,
      { timeout: 300_000 },
      async ({ openPage }) => {
        mkdirSync(DIR, { recursive: true });
        for (const theme of themes) {
          const page = await openPage(device);
          await useTheme(page, theme);
          const old = await createAccount(page);
          const young = await createAccount(page);
          const fits = async () =>
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

          // The old account cannot move yet: the new one does not name it.
          await signInViaApi(page, old);
          let section = await movingSection(page);
          await section.getByLabel("New account's address").fill(young.username);
          await clickHydrated(section.getByRole('button', { name: 'Move account' }));
          await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
          await section
            .getByRole('alert')
            .filter({ hasText: `@${young.username} does not name this account` })
            .waitFor();

          // The new account names the old one.
          await signInViaApi(page, young);
          section = await movingSection(page);
          await section.getByLabel("Old account's address").fill(old.username);
          await clickHydrated(section.getByRole('button', { name: 'Add alias' }));
          const aliases = section.getByRole('list', { name: 'Aliases' });
          await aliases
            .getByRole('listitem')
            .filter({ hasText: `@${old.username}@` })
            .waitFor();
          const aliasesPart = section.getByRole('form', { name: 'Move here from another account' });
          await aliasesPart.scrollIntoViewIfNeeded();
          await fits();
          await aliasesPart.screenshot({ path: path.join(DIR, `aliases-${size}-${theme}.png`) });

          // The old account moves, after confirming.
          await signInViaApi(page, old);
          section = await movingSection(page);
          await section.getByLabel("New account's address").fill(young.username);
          await clickHydrated(section.getByRole('button', { name: 'Move account' }));
          const dialog = page.getByRole('dialog');
          await dialog.getByText(`Your followers will follow ${young.username} instead`).waitFor();
          await dialog.getByRole('button', { name: 'Move' }).click();
          await section
            .getByRole('status')
            .filter({ hasText: `This account has moved to @${young.username}` })
            .waitFor();
          const movePart = section.getByRole('group', { name: 'Move to another account' });
          await movePart.scrollIntoViewIfNeeded();
          await fits();
          await movePart.screenshot({ path: path.join(DIR, `moved-settings-${size}-${theme}.png`) });

          // Its profile says where it went, linked.
          await page.goto(`/profile/${old.username}`);
          const notice = page.getByTestId('moved-notice');
          await notice.waitFor();
          expect(await notice.textContent()).toBe(`This account has moved to @${young.username}`);
          expect(await notice.getByRole('link').getAttribute('href')).toBe(`/profile/${young.username}`);
          // Its own empty grid does not invite a post it cannot make.
          const grid = page.getByRole('main');
          await grid.getByText('This account has moved and takes no new posts.').waitFor();
          expect(await grid.getByRole('button', { name: /Create post/ }).count()).toBe(0);
          await fits();
          await page.screenshot({ path: path.join(DIR, `moved-profile-${size}-${theme}.png`) });

          // Its composer takes no post (on a phone, Create post is in the menu).
          const menu = page.getByRole('button', { name: 'Open menu' });
          if (await menu.isVisible()) await clickHydrated(menu);
          await clickHydrated(
            page
              .getByRole('button', { name: /Create post/ })
              .filter({ visible: true })
              .first(),
          );
          await page
            .getByRole('dialog')
            .getByRole('alert')
            .filter({ hasText: `This account has moved to @${young.username}: it takes no new posts.` })
            .waitFor();
          await page.close();
        }
      },
    );
});
