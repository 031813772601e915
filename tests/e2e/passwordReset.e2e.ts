import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { expect, test } from './browser';
import { linkIn, waitForMail } from './mail';
import { createAccount, signInWithForm } from './users';

describe('password reset', () => {
  test('forgot → mail → reset → sign in with the new password', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    // The address typed so far comes along, and focus moves to the new form.
    const email = page.getByLabel('Email');
    await expect.poll(() => email.inputValue()).toBe(account.email);
    await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByRole('status').filter({ hasText: EMAIL_TEXTS.resetLinkSent }).waitFor();

    const mail = await waitForMail(account.email, 'Reset your password');
    const link = linkIn(mail, '/resetPassword');
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('New password must be 8–128 characters').waitFor();
    await page.getByLabel('New password').fill('a whole new password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('status').filter({ hasText: EMAIL_TEXTS.passwordReset }).waitFor();

    await signInWithForm(page, { ...account, password: 'a whole new password' });
    expect(new URL(page.url()).pathname).toBe('/home');

    // The link was single use.
    const again = await openPage();
    await again.goto(link.pathname + link.search);
    await again.getByLabel('New password').fill('yet another password');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByRole('alert').filter({ hasText: EMAIL_TEXTS.invalidLink }).waitFor();
    expect(new URL(again.url()).pathname).toBe('/resetPassword');
  });
});

describe('email verification', () => {
  test('a new account sees the banner until it opens the mailed link', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const banner = page.getByRole('region', { name: 'Email verification' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(account.email);

    await banner.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByRole('status').filter({ hasText: EMAIL_TEXTS.verificationSent }).waitFor();
    // The second link (the first, mailed at sign-up, stopped working when it was sent again).
    const mail = await waitForMail(account.email, 'Verify your email address', 2);
    const link = linkIn(mail, '/verifyEmail');
    await page.goto(link.pathname + link.search);
    await page
      .getByRole('status')
      .filter({ hasText: `${EMAIL_TEXTS.emailVerified}: ${account.email}` })
      .waitFor();
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await page.waitForURL('**/home');
    await expect.poll(() => banner.count()).toBe(0);
  });
});
