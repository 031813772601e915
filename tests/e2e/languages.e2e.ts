import { baseURL, expect, test } from './browser';
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
