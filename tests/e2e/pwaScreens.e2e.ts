/**
 * Screenshots for a person to look at (issue 74): Settings' "Notifications on this device" and
 * the offline shell at 375 and 1280 px in each theme, under test-results/e2e/pwa/. What they must do
 * is asserted in pushSettings.e2e.ts and pwa.e2e.ts; this checks they fit the screen.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, RESULTS_DIR, expect, test } from './browser';
import { signInViaApi } from './content';
import { themes, useTheme } from './pages';
import { createAccount } from './users';
import { palettes } from '../../themes';

const DIR = path.join(RESULTS_DIR, 'pwa');

/** Each theme's page background, as the computed style gives it. */
const backgrounds = Object.fromEntries(
  themes.map((theme) => {
    const hex = palettes[theme].bg;
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
    return [theme, `rgb(${r}, ${g}, ${b})`];
  }),
);

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

    test(`the offline shell at ${size} px in every theme`, async ({ openPage }) => {
      mkdirSync(DIR, { recursive: true });
      for (const theme of themes) {
        const page = await openPage(device);
        await useTheme(page, theme);
        await page.goto('/offline');
        await page.getByRole('heading', { name: 'You are offline' }).waitFor();
        // The theme chosen in this browser, as the app's pages show it.
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(backgrounds[theme]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({ path: path.join(DIR, `offline-${size}-${theme}.png`) });
        expect(await axeViolations(page)).toEqual([]);
        await page.close();
      }
    });
  }
});
