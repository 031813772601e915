/**
 * Screenshots for a person to look at (issue 76): Settings' "Move in and out" section with a
 * finished import, at 375 and 1280 px in each theme, under test-results/e2e/moving/. What it must do
 * is asserted in moving.e2e.ts; this checks the section fits the screen.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DESKTOP, MOBILE, RESULTS_DIR, test } from './browser';
import { signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'moving');

describe('Move in and out, photographed', () => {
  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const)
    test(`the section at ${size} px in every theme`, { timeout: 240_000 }, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        const account = await createAccount(page);
        await signInViaApi(page, account);
        await page.goto('/settings#moving');
        const section = page.getByRole('region', { name: 'Move in and out' });
        await section.waitFor();
        await section.getByLabel('CSV file').setInputFiles({
          name: 'following_accounts.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            'Account address,Show boosts,Notify on new posts,Languages\nnobody@nowhere.invalid,true,false,\n',
          ),
        });
        await section.getByRole('button', { name: 'Import' }).click();
        await section.getByTestId('list-import-progress').waitFor();
        await section.scrollIntoViewIfNeeded();
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await section.screenshot({ path: path.join(DIR, `moving-${size}-${theme}.png`) });
        await page.close();
      }
    });
});
