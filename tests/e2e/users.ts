/** Fresh accounts for journeys: unique names, made through the API (or the UI when the journey is sign-up). */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export interface Account {
  username: string;
  email: string;
  password: string;
}

export function newAccount(prefix = 'user'): Account {
  const username = `${prefix}_${randomBytes(4).toString('hex')}`;
  return { username, email: `${username}@example.com`, password: 'correct horse battery' };
}

/** Signs up through the API: journeys that are not about sign-up start from here. */
export async function createAccount(page: { request: APIRequestContext }, account = newAccount()): Promise<Account> {
  const res = await page.request.post('/api/auth/signup', { data: account });
  if (res.status() !== 201) throw new Error(`signup failed: ${res.status()} ${await res.text()}`);
  return account;
}

/** Signs in through the login form and waits for the home feed. */
export async function signInWithForm(page: Page, account: Account): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/home');
}

/**
 * Opens the avatar menu and signs out. The menu's button is in the server's HTML, so a click that
 * lands before hydration does nothing: click again until the menu says it is open.
 */
export async function logoutFromMenu(page: Page): Promise<void> {
  // The navbar hides while the page is scrolled down.
  await page.evaluate(() => window.scrollTo(0, 0));
  const trigger = page.getByRole('button', { name: 'Account menu' });
  await expect
    .poll(
      async () => {
        if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
        return trigger.getAttribute('aria-expanded');
      },
      { timeout: 15_000 },
    )
    .toBe('true');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Makes someone an admin, as an operator does: the admin command on the suite's data. */
export async function grantAdmin(username: string): Promise<void> {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', 'grant', username], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, DATA_DIR: inject('dataDir'), LOG_LEVEL: 'silent' },
  });
}
