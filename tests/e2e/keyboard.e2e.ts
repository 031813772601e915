import type { Page } from 'playwright-core';
import { expect, test } from './browser';
import { signInViaApi } from './content';
import { createAccount } from './users';

/** Presses Tab until the focused element matches, at most `max` times. */
async function tabTo(page: Page, accessibleName: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute('aria-label') ?? el.innerText ?? '').trim() : '';
    });
    if (name === accessibleName) return;
  }
  throw new Error(`Tab never reached "${accessibleName}"`);
}

const focusRingVisible = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
  });

const focusInside = (page: Page, selector: string) =>
  page.evaluate((sel) => Boolean(document.activeElement?.closest(sel)), selector);

describe('keyboard', () => {
  test('the post modal opens from the keyboard, traps focus, closes on Escape and returns focus', async ({
    openPage,
  }) => {
    const page = await openPage();
    await signInViaApi(page, await createAccount(page));
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    // The signed-in navbar is a chunk of its own: tab once it has rendered.
    await page.getByRole('banner').getByRole('button', { name: 'Create post' }).waitFor();

    await tabTo(page, 'Create post');
    expect(await focusRingVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create post' }).waitFor();
    expect(await focusInside(page, '[role="dialog"]')).toBe(true);
    for (let i = 0; i < 15; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInside(page, '[role="dialog"]')).toBe(true);
      expect(await focusRingVisible(page)).toBe(true);
    }
    for (let i = 0; i < 15; i += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInside(page, '[role="dialog"]')).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Create post' }).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).innerText.trim())).toBe('Create post');
  });

  test('the account menu opens with the keyboard and closes on Escape', async ({ openPage }) => {
    const page = await openPage();
    await signInViaApi(page, await createAccount(page));
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    // The signed-in navbar is a chunk of its own: tab once it has rendered.
    await page.getByRole('banner').getByRole('button', { name: 'Create post' }).waitFor();
    await tabTo(page, 'Account menu');
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Settings' }).waitFor({ state: 'detached' });
    await tabTo(page, 'Account menu', 60);
    await page.keyboard.press('Enter');
    await tabTo(page, 'Settings', 5);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/settings');
  });
});
