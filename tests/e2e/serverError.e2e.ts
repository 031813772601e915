/**
 * The 500 page in the reader's language (issue 75): made once at build time in English, it is put
 * in the `lang` cookie's language, else the browser's, by its own script before the app's code runs,
 * and React's hydration keeps it so (lib/i18n/serverErrorLanguage.ts). Arabic is right to left,
 * axe-clean, and photographed at 375 px (test-results/e2e/serverError/).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { baseURL, expect, MOBILE, RESULTS_DIR, test, waitHydrated } from './browser';
import { axeViolations } from './axe';
import { serverTextsIn } from '../../lib/i18n/serverTexts';

const DIR = path.join(RESULTS_DIR, 'serverError');

/**
 * The page's console errors and uncaught errors (a refused script, a hydration that failed), but the
 * page's own status: /500 is answered with 500, as a failed render is.
 */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const ownStatus = message.text().includes('status of 500') && new URL(message.location().url).pathname === '/500';
    if (message.type() === 'error' && !ownStatus) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** What the reader is shown: the document's language and direction, its title and the page's texts. */
async function shown(page: Page) {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.getAttribute('dir'),
    title: document.title,
    skip: document.querySelector('.skip-link')?.textContent,
    heading: document.querySelector('#content h1')?.textContent,
    lead: document.querySelector('#content .lead')?.textContent,
    button: document.querySelector('#content button')?.textContent,
  }));
}

function expected(language: 'ar' | 'es' | 'en') {
  const say = serverTextsIn(language);
  return {
    lang: language,
    dir: language === 'ar' ? 'rtl' : null,
    title: `${say('pages.serverError.title')} · Posts`,
    skip: say('shell.skipToContent'),
    heading: say('pages.serverError.title'),
    lead: say('pages.serverError.lead'),
    button: say('pages.serverError.tryAgain'),
  };
}

test('the 500 page speaks the lang cookie’s language before the app’s code runs, Arabic right to left', async ({
  openPage,
}) => {
  const page = await openPage(MOBILE);
  await page.context().addCookies([{ name: 'lang', value: 'ar', url: baseURL() }]);
  // The app's code held back: what the reader sees first is the page's own script's doing.
  await page.route('**/_next/static/**', (route) => route.abort());
  const errors = errorsOf(page);
  const response = await page.goto('/500');
  // The HTML is Next's, made at build time, in English, and answered as a failure is.
  expect(response!.status()).toBe(500);
  expect(await response!.text()).toContain('<html lang="en"');
  expect(await shown(page)).toEqual(expected('ar'));
  // Refused by the page's policy, the script would have left it English (and said so here).
  expect(errors.filter((error) => !error.includes('net::ERR_FAILED'))).toEqual([]);
});

/**
 * Opens the 500 page and waits for React: its texts, and the visitor's navbar rendered after
 * hydration (the session looked up), in `language`; no hydration failure (React would say so and
 * render again), no refused script, axe-clean.
 */
async function hydratedIn(page: Page, language: 'ar' | 'es') {
  const errors = errorsOf(page);
  await page.goto('/500');
  const say = serverTextsIn(language);
  await waitHydrated(page.getByRole('button', { name: say('pages.serverError.tryAgain') }));
  await page.getByRole('link', { name: say('shell.signIn') }).waitFor();
  expect(await shown(page)).toEqual(expected(language));
  expect(errors).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
}

test('the 500 page in Arabic stays Arabic once React hydrates it: axe-clean, at 375 px', async ({ openPage }) => {
  mkdirSync(DIR, { recursive: true });
  const page = await openPage(MOBILE);
  await page.context().addCookies([{ name: 'lang', value: 'ar', url: baseURL() }]);
  await hydratedIn(page, 'ar');
  await page.screenshot({ path: path.join(DIR, 'server-error-ar-375.png') });
});

test('the 500 page speaks the browser’s language without a cookie (es), and the cookie’s over it (en)', async ({
  openPage,
}) => {
  const page = await openPage({ locale: 'es-ES' });
  await hydratedIn(page, 'es');

  await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL() }]);
  await page.goto('/500');
  await waitHydrated(page.getByRole('button', { name: 'Try again' }));
  expect(await shown(page)).toEqual(expected('en'));
});
