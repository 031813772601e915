/**
 * The browser side of the suite: Debian's Chromium through playwright-core, a fresh context per
 * test, and on failure a screenshot plus the page's console log under test-results/e2e/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect, inject, test as base } from 'vitest';
import { DESKTOP, launchChromium } from './chromium';

export { DESKTOP, MOBILE } from './chromium';

export const RESULTS_DIR = path.resolve(import.meta.dirname, '../../test-results/e2e');

export const baseURL = () => inject('baseURL');

let browser: Browser | null = null;
async function sharedBrowser(): Promise<Browser> {
  browser ??= await launchChromium();
  return browser;
}
afterAll(async () => {
  await browser?.close();
  browser = null;
});

export interface PageFixtures {
  /** A new browser context (own cookies and storage), desktop-sized unless the test says otherwise. */
  openPage: (options?: Parameters<Browser['newContext']>[0]) => Promise<Page>;
}

const safeName = (name: string) => name.replace(/[^a-z0-9-]+/gi, '_').slice(0, 120);

export const test = base.extend<PageFixtures>({
  openPage: async ({ task }, use) => {
    const contexts: BrowserContext[] = [];
    const pages: Page[] = [];
    const logs: string[] = [];
    await use(async (options) => {
      // The app's service worker (issue 74) would answer the static files and pages itself, out of
      // reach of `page.route`: off unless a test asks for it (tests/e2e/pwa.e2e.ts). Without
      // `navigator.serviceWorker` the app does not try to register (which Playwright's block
      // would log as a console warning) and Settings' push section says the browser cannot.
      const context = await (
        await sharedBrowser()
      ).newContext({ baseURL: baseURL(), ...DESKTOP, serviceWorkers: 'block', ...options });
      if (options?.serviceWorkers !== 'allow')
        await context.addInitScript(() => {
          delete (Navigator.prototype as { serviceWorker?: unknown }).serviceWorker;
        });
      contexts.push(context);
      const page = await context.newPage();
      const index = pages.push(page) - 1;
      page.on('console', (message) => logs.push(`[page ${index}] ${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => logs.push(`[page ${index}] pageerror: ${error.message}`));
      return page;
    });
    // The test has finished: its errors are known, and the pages are still open to photograph.
    if (task.result?.state === 'fail' || (task.result?.errors?.length ?? 0) > 0) {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const name = safeName(`${path.basename(task.file?.name ?? '')}-${task.name}`);
      await Promise.all(
        pages.map((page, i) =>
          page.screenshot({ path: path.join(RESULTS_DIR, `${name}-${i}.png`), fullPage: true }).catch(() => {}),
        ),
      );
      writeFileSync(path.join(RESULTS_DIR, `${name}.log`), logs.join('\n'));
    }
    await Promise.all(contexts.map((context) => context.close()));
  },
});

/**
 * Clicks a control that is in the server's HTML once React has hydrated it (it carries React's
 * props then): a click before that does nothing, which made journeys fail on a busy machine.
 */
export async function clickHydrated(control: Locator): Promise<void> {
  await waitHydrated(control);
  await control.click();
}

/** Waits until React has hydrated a control of the server's HTML (typing or Enter before that is lost). */
export async function waitHydrated(control: Locator): Promise<void> {
  const isHydrated = () =>
    control.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$')));
  await expect.poll(isHydrated, { timeout: 15_000 }).toBe(true);
}

export { expect };
