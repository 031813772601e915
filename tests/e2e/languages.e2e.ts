import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseURL, clickHydrated, DESKTOP, expect, MOBILE, RESULTS_DIR, test, waitHydrated } from './browser';
import { cardOf, dropFile, makeImage, signInViaApi } from './content';
import { axeViolations } from './axe';
import { englishLeft } from './englishLeft';
import { buildWorld, openAppPage } from './pages';
import { createAccount, newAccount } from './users';
import { LANGUAGES } from '../../lib/i18n/languages';
import { serverTextsIn } from '../../lib/i18n/serverTexts';

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

  // The account's page load kept the cookie in step with it (lib/pageProps.ts).
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('ar');
  // Cleared: the cookie decides.
  await page.request.patch('/api/users/updateProfile', { data: { language: null } });
  await page.context().addCookies([{ name: 'lang', value: 'de', url: baseURL() }]);
  expect(await htmlAttributes(page, '/settings')).toMatch(/^<html lang="de" data-theme/);
});

test('Arabic mirrors every page the server renders (dir="rtl"), axe-clean: screenshots at 375 and 1280 px to look at', async ({
  openPage,
}) => {
  const dir = path.join(RESULTS_DIR, 'languages');
  mkdirSync(dir, { recursive: true });
  const world = await buildWorld(await openPage());
  const violations: string[] = [];
  for (const [size, device] of [
    ['375', MOBILE],
    ['1280', DESKTOP],
  ] as const) {
    const page = await openPage(device);
    await signInViaApi(page, world.author);
    await page.request.patch('/api/users/updateProfile', { data: { language: 'ar' } });
    // A visitor's pages, in the language of the `lang` cookie.
    const visitor = await openPage(device);
    await visitor.context().addCookies([{ name: 'lang', value: 'ar', url: baseURL() }]);
    for (const [reader, signedIn] of [
      [page, true],
      [visitor, false],
    ] as const)
      for (const { name, path: url } of world.pages.filter((p) => p.signedIn === signedIn)) {
        await openAppPage(reader, url);
        expect(await reader.locator('html').getAttribute('dir')).toBe('rtl');
        await reader.screenshot({ path: path.join(dir, `${name}-ar-${size}.png`) });
        for (const violation of await axeViolations(reader)) violations.push(`${name} ${size}: ${violation}`);
      }
    if (size === '375') {
      // The phone's sidebar comes in from the right, the side its menu button is on.
      await clickHydrated(page.getByRole('button', { name: serverTextsIn('ar')('shell.openMenu') }));
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page.waitForTimeout(300); // its slide-in's end, for the picture only
      const box = await dialog.boundingBox();
      expect(box && Math.round(box.x + box.width)).toBe(375);
      await page.screenshot({ path: path.join(dir, `sidebar-ar-375.png`) });
    }
  }
  expect(violations).toEqual([]);
}, 300_000);

test('no English is left on any page in every language but English, and each is axe-clean', async ({ openPage }) => {
  const page = await openPage();
  const world = await buildWorld(page);
  await signInViaApi(page, world.author);
  const left: string[] = [];
  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    await page.request.patch('/api/users/updateProfile', { data: { language } });
    // A visitor's pages, in the language their browser asks for (Accept-Language).
    const visitor = await openPage({ locale: language });
    for (const [reader, signedIn, who] of [
      [page, true, ''],
      [visitor, false, ' (visitor)'],
    ] as const)
      for (const { name, path: url } of world.pages.filter((p) => p.signedIn === signedIn)) {
        await reader.goto(url);
        await reader.waitForLoadState('networkidle');
        for (const text of await englishLeft(reader)) left.push(`${language} ${name}${who}: ${text}`);
        for (const violation of await axeViolations(reader)) left.push(`${language} ${name}${who}: axe: ${violation}`);
      }
    await visitor.context().close();
  }
  expect(left).toEqual([]);
  // Five languages of fifteen pages: a cap for a busy machine, not a measurement.
}, 600_000);

test("a visitor's navbar fits a 320 and a 375 px phone in every language: its links inside the bar, none cut off", async ({
  openPage,
}) => {
  for (const language of LANGUAGES)
    for (const width of [320, 375]) {
      const page = await openPage({ locale: language, viewport: { width, height: 700 } });
      for (const path of ['/', '/login', '/createAccount']) {
        await page.goto(path);
        const links = page.locator('header a');
        await links.first().waitFor();
        const edges = await links.evaluateAll((all) =>
          all.map((link) => {
            const { left, right } = link.getBoundingClientRect();
            return { left, right };
          }),
        );
        for (const { left, right } of edges) {
          expect(left, `${language} at ${width} px on ${path}`).toBeGreaterThanOrEqual(0);
          expect(right, `${language} at ${width} px on ${path}`).toBeLessThanOrEqual(width);
        }
      }
      await page.context().close();
    }
});

test("a visitor's first page speaks their browser's language; the landing page's picker changes every page's", async ({
  openPage,
}) => {
  const page = await openPage({ locale: 'es-ES' });
  await page.goto('/');
  expect(await page.locator('html').getAttribute('lang')).toBe('es');
  await page
    .getByRole('link', { name: serverTextsIn('es')('landing.signIn') })
    .first()
    .waitFor();

  const picker = page.getByRole('combobox', { name: serverTextsIn('es')('language.label') });
  await waitHydrated(picker);
  await Promise.all([page.waitForEvent('load'), picker.selectOption('de')]);
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  expect((await page.context().cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('de');
  // The choice holds on the next page, whatever the browser asks for.
  await page.goto('/createAccount');
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  await page.getByRole('heading', { name: serverTextsIn('de')('auth.signup.title') }).waitFor();
});

for (const language of ['es', 'ar'] as const)
  test(`in ${language}: sign up and in, post from the composer, comment on it and save the profile, each said in ${language}`, async ({
    openPage,
  }) => {
    // The texts as the catalogue says them in this language (English would not be found).
    const say = serverTextsIn(language);
    // A browser that asks for the language (Accept-Language): signs up and in through the forms.
    const page = await openPage({ locale: language });
    const account = newAccount();
    await page.goto('/createAccount');
    await waitHydrated(page.getByLabel(say('auth.username')));
    await page.getByLabel(say('auth.username')).fill(account.username);
    await page.getByLabel(say('auth.email')).fill(account.email);
    await page.getByLabel(say('auth.password')).fill(account.password);
    await page.getByRole('button', { name: say('auth.signup.submit') }).click();
    await page.waitForURL('**/login');
    await waitHydrated(page.getByLabel(say('auth.email')));
    await page.getByLabel(say('auth.email')).fill(account.email);
    await page.getByLabel(say('auth.password')).fill(account.password);
    await page.getByRole('button', { name: say('auth.login.submit') }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: say('posts.home.title') }).waitFor();

    await clickHydrated(page.getByRole('button', { name: say('shell.createPost') }).first());
    const dialog = page.getByRole('dialog');
    await dropFile(page, 'post-dropzone', { name: 'sea.jpg', type: 'image/jpeg', bytes: await makeImage('jpeg') });
    await expect.poll(() => dialog.locator('[data-testid="photo-card"] img[src*="/media/post/"]').count()).toBe(1);
    const message = `${language}: el mar, البحر ${Date.now()}`;
    await dialog.getByLabel(say('posts.form.message'), { exact: true }).fill(message);
    const tags = dialog.getByLabel(say('posts.form.tags'), { exact: true });
    await tags.fill('mar');
    await tags.press('Enter');
    await dialog.getByRole('button', { name: say('posts.form.publish') }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = cardOf(page, message);
    await card.waitFor();

    await card.getByRole('link', { name: say('posts.card.comments', { count: 0 }) }).click();
    const comment = page.getByPlaceholder(say('comments.placeholder'));
    await clickHydrated(comment);
    await comment.fill(language === 'ar' ? 'منظر جميل' : 'Qué vista');
    await clickHydrated(page.getByRole('button', { name: say('comments.send'), exact: true }));
    await page.getByText(say('comments.toasts.added'), { exact: true }).last().waitFor();

    await page.goto('/settings');
    const description = page.getByLabel(say('settings.profile.description'));
    await clickHydrated(description);
    await description.fill(language === 'ar' ? 'صور البحر' : 'Fotos del mar');
    await clickHydrated(page.getByRole('button', { name: say('settings.profile.save') }));
    await page.getByText(say('auth.toasts.userUpdated'), { exact: true }).last().waitFor();
    expect((await (await page.request.get('/api/auth/getLoggedUser')).json()).description).toBe(
      language === 'ar' ? 'صور البحر' : 'Fotos del mar',
    );
  });

test('a Spanish visitor’s refusals are said in Spanish: a wrong password (toast and note), an email already registered (issue 75)', async ({
  openPage,
}) => {
  const say = serverTextsIn('es');
  const page = await openPage({ locale: 'es-ES' });
  const account = await createAccount(page);
  await page.goto('/login');
  const email = page.getByLabel(say('auth.email'));
  await waitHydrated(email);
  await email.fill(account.email);
  const password = page.getByLabel(say('auth.password'), { exact: true });
  await password.fill('not the password');
  await clickHydrated(page.getByRole('button', { name: say('auth.login.submit') }));
  // The API says "Invalid email or password"; its code picks the catalogue's words.
  const refused = say('errors.InvalidCredentials');
  expect(refused).toBe('Correo electrónico o contraseña incorrectos');
  await page.locator('div[role="alert"]').filter({ hasText: refused }).waitFor();
  await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
  const note = page.locator(`#${await password.evaluate((el) => el.getAttribute('aria-describedby'))}`);
  expect(await note.innerText()).toBe(refused);
  expect(await page.getByText('Invalid email or password').count()).toBe(0);

  // Signing up with that address again: the refusal, in Spanish, marks the email field (not the username's).
  await page.goto('/createAccount');
  await waitHydrated(page.getByLabel(say('auth.username')));
  await page.getByLabel(say('auth.username')).fill(newAccount().username);
  const taken = page.getByLabel(say('auth.email'));
  await taken.fill(account.email);
  await page.getByLabel(say('auth.password')).fill(newAccount().password);
  await page.getByRole('button', { name: say('auth.signup.submit') }).click();
  await expect.poll(() => taken.getAttribute('aria-invalid')).toBe('true');
  const takenNote = page.locator(`#${await taken.evaluate((el) => el.getAttribute('aria-describedby'))}`);
  expect(await takenNote.innerText()).toBe(say('errors.EmailTaken'));
});
