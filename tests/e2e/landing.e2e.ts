import { expect, test } from './browser';

test('the landing page says what Posts is and offers both ways in', async ({ openPage }) => {
  const page = await openPage();
  await page.goto('/');
  await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
  expect(await page.getByRole('link', { name: 'Sign in' }).first().isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Create Account' }).first().isVisible()).toBe(true);
});
