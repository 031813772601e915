import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseURL, DESKTOP, expect, MOBILE, RESULTS_DIR, test } from './browser';
import { signInViaApi } from './content';
import { createAccount } from './users';

/** The `<html>` attributes the server's HTML carries (no script has run on them). */
async function htmlAttributes(
  page: { request: { get: (url: string) => Promise<{ text: () => Promise<string> }> } },
  url: string,
) {
  const html = await (await page.request.get(url)).text();
  return html.match(/<html[^>]*>/)?.[0] ?? '';
}

test("a page the server renders speaks the account's language, else the cookie's, else English (issue 75)", async ({
  openPage,
}) => {
  const page = await openPage();
  const account = await createAccount(page);
  await signInViaApi(page, account);

  expect(await htmlAttributes(page, '/settings')).toMatch(/^<html lang="en" data-theme/);

  await page.context().addCookies([{ name: 'lang', value: 'de', url: baseURL() }]);
  await page.request.patch('/api/users/updateProfile', { data: { language: 'ar' } });
  expect(await htmlAttributes(page, '/settings')).toMatch(/^<html lang="ar" dir="rtl" /);
  await page.goto('/settings');
  expect(await page.locator('html').getAttribute('dir')).toBe('rtl');

  // Cleared: the cookie decides.
  await page.request.patch('/api/users/updateProfile', { data: { language: null } });
  expect(await htmlAttributes(page, '/settings')).toMatch(/^<html lang="de" data-theme/);
});

test('Arabic mirrors the page (dir="rtl"): screenshots at 375 and 1280 px to look at', async ({ openPage }) => {
  const dir = path.join(RESULTS_DIR, 'languages');
  mkdirSync(dir, { recursive: true });
  for (const [size, device] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const) {
    const page = await openPage(device);
    await signInViaApi(page, await createAccount(page));
    await page.request.patch('/api/users/updateProfile', { data: { language: 'ar' } });
    await page.goto('/settings');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await page.screenshot({ path: path.join(dir, `settings-ar-${size}.png`) });
  }
});
