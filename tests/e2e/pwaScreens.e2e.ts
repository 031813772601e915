/**
 * Screenshots for a person to look at (issue 74): Settings' "Notifications on this device" at 375
 * and 1280 px in each theme, and the offline shell, under test-results/e2e/pwa/. What they must do
 * is asserted in pushSettings.e2e.ts and pwa.e2e.ts; this checks they fit the screen.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, expect, test } from './browser';
import { signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';

const DIR = path.join(RESULTS_DIR, 'pwa');

describe('the installed app, photographed', () => {
  for (const [size, device, width] of [
    ['375', MOBILE, 375],
    ['1280', DESKTOP, 1280],
  ] as const) {
    test(`the notifications section at ${size} px in every theme`, { timeout: 240_000 }, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage({ ...device, serviceWorkers: 'allow' });
        await useTheme(page, theme);
        await signInViaApi(page, await createAccount(page));
        await page.goto('/settings#notifications');
        const section = page.getByRole('region', { name: 'Notifications on this device' });
        await section.getByText('Off for this device.').waitFor();
        await section.scrollIntoViewIfNeeded();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await section.screenshot({ path: path.join(DIR, `push-${size}-${theme}.png`) });
        // The page with the section passes axe's checks (contrast in this theme included).
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      }
    });

    test(`the offline shell at ${size} px`, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      const page = await openPage(device);
      await page.goto('/offline');
      await page.getByRole('heading', { name: 'You are offline' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(DIR, `offline-${size}.png`) });
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
