import { expect, test } from './browser';

test('the landing page says what Posts is and offers both ways in', async ({ openPage }) => {
  const page = await openPage();
  await page.goto('/');
  await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
  expect(await page.getByRole('link', { name: 'Sign in' }).first().isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Create Account' }).first().isVisible()).toBe(true);
});

test('the landing page starts light: its scripts are compiled while they stream, links load nothing in view', async ({
  openPage,
}) => {
  const page = await openPage();
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/_next/static/chunks/')) requested.push(request.url());
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  // Every chunk the page loads at start carries V8's eager-compile hint (server/pages/buildPages.ts).
  const html = await (await page.request.get('/')).text();
  const startScripts = [...html.matchAll(/<script src="(\/_next\/static\/chunks\/[^"]+)"/g)].map(
    (m) => new URL(m[1], page.url()).href,
  );
  expect(startScripts.length).toBeGreaterThan(0);
  for (const url of startScripts) {
    const code = await (await page.request.get(url)).text();
    expect(code.startsWith('//# allFunctionsCalledOnLoad\n'), url).toBe(true);
  }
  // The sign-in and sign-up links are in view, yet no other page's code is fetched until wanted.
  await page.waitForTimeout(1_000);
  expect(requested.filter((url) => !startScripts.includes(url))).toEqual([]);
  await page.getByRole('link', { name: 'Sign in' }).first().hover();
  await expect.poll(() => requested.length).toBeGreaterThan(startScripts.length);
});
