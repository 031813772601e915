/** Settings' security section in a real browser: two-factor sign-in, devices, account deletion. */
import { Secret, TOTP } from 'otpauth';
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { axeViolations } from './axe';
import { clickHydrated, MOBILE, expect, test } from './browser';
import { signInViaApi } from './content';
import { openAppPage, themes, useTheme } from './pages';
import { createAccount, logoutFromMenu, signInWithForm } from './users';

/** The authenticator app: the code of the 30-second step `steps` from now. */
const codeFor = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

describe('two-factor sign-in', () => {
  test('enable it in Settings, sign out, sign in with a code, then with a recovery code', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    await page.goto('/settings');

    await clickHydrated(page.getByRole('button', { name: 'Set up two-factor sign-in' }));
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The QR code is drawn in the page, from the otpauth URL.
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // Focus moves on to the code field, the next thing to do.
    const codeInput = page.getByLabel('Code from the app');
    await expect.poll(() => codeInput.evaluate((el) => el === document.activeElement)).toBe(true);

    await codeInput.fill(codeFor(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor();
    const recoveryCodes = (await codes.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 recovery codes left').waitFor();

    await logoutFromMenu(page);

    // The password alone asks for the code; the next step's code signs in.
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel('Two-factor code');
    await codeField.waitFor();
    await expect.poll(() => codeField.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(page.url()).toMatch(/\/login$/);
    await codeField.fill(codeFor(secret, 1));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/home');

    // A recovery code works too, in another browser.
    const other = await openPage();
    await other.goto('/login');
    await other.getByLabel('Email').fill(account.email);
    await other.getByLabel('Password').fill(account.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByLabel('Two-factor code').fill(recoveryCodes[0]);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL('**/home');
    // A wrong code says so and stays on the page.
    await logoutFromMenu(other);
    await other.goto('/login');
    await other.getByLabel('Email').fill(account.email);
    await other.getByLabel('Password').fill(account.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByLabel('Two-factor code').fill(recoveryCodes[0]);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByText(SECURITY_TEXTS.invalidTwoFactorCode, { exact: true }).last().waitFor();
    expect(other.url()).toMatch(/\/login$/);
  });
});

describe('devices', () => {
  test('lists this device and a phone; signs the phone out, then everywhere else', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const phone = await openPage(MOBILE);
    await signInViaApi(phone, account);
    await phone.goto('/home');

    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Where you are signed in' });
    await section.getByText('This device').waitFor();
    await section.getByText('Safari on iOS').waitFor();
    await section.getByRole('button', { name: 'Sign out Safari on iOS' }).click();
    await page.getByText(SECURITY_TEXTS.sessionSignedOut, { exact: true }).last().waitFor();
    await expect.poll(() => section.getByText('Safari on iOS').count()).toBe(0);
    // The phone's session is gone: its next page is the sign-in, back to the page (issue 68, item 3).
    await phone.goto('/home');
    await phone.waitForURL((url) => url.pathname === '/login');

    // Two more devices, then "Sign out everywhere else".
    const laptop = await openPage();
    await signInViaApi(laptop, account);
    await page.reload();
    await expect.poll(() => section.getByRole('listitem').count()).toBe(2);
    await section.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText(SECURITY_TEXTS.otherSessionsSignedOut, { exact: true }).last().waitFor();
    await expect.poll(() => section.getByRole('listitem').count()).toBe(1);
    await laptop.goto('/home');
    await laptop.waitForURL((url) => url.pathname === '/login');
    await page.goto('/home');
    expect(new URL(page.url()).pathname).toBe('/home');
  });
});

describe('account deletion', () => {
  test('needs the username typed; afterwards the account is gone', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    await page.goto('/settings');
    // The section loads after the page: its form, not the Account panel's password field.
    const form = page.getByRole('form', { name: 'Delete account' });
    const remove = form.getByRole('button', { name: 'Delete account' });
    await form.getByLabel('Your password').fill(account.password);
    expect(await remove.isDisabled()).toBe(true);
    await form.getByLabel(`Type ${account.username} to confirm`).fill(`${account.username}x`);
    expect(await remove.isDisabled()).toBe(true);
    await form.getByLabel(`Type ${account.username} to confirm`).fill(account.username);
    await remove.click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText(SECURITY_TEXTS.accountDeleted, { exact: true }).last().waitFor();

    const login = await page.request.post('/api/auth/login', {
      data: { email: account.email, password: account.password },
    });
    expect(login.status()).toBe(401);
    const again = await page.request.post('/api/auth/signup', { data: account });
    expect(again.status()).toBe(409);
    expect((await again.json()).message).toBe(SECURITY_TEXTS.usernameRetired);
  });
});

describe('the security section in every theme, at 375px and 1280px', () => {
  // One test a theme: six pages with axe in one test outgrew its minute on a busy machine.
  for (const theme of themes)
    test(`${theme}: two-factor setup showing, deletion form: no axe violations, nothing scrolls sideways`, async ({
      openPage,
    }) => {
      const found: string[] = [];
      for (const [width, options] of [
        [1280, {}],
        [375, MOBILE],
      ] as const) {
        const page = await openPage(options);
        await useTheme(page, theme);
        await signInViaApi(page, await createAccount(page));
        await openAppPage(page, '/settings');
        await page.getByRole('region', { name: 'Where you are signed in' }).getByText('This device').waitFor();
        await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
        await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
        for (const violation of await axeViolations(page)) found.push(`${width}px: ${violation}`);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) found.push(`${width}px: the page is ${scrollWidth}px wide`);
        await page.context().close();
      }
      expect(found).toEqual([]);
    });
});
