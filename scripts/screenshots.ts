/**
 * `npm run screenshots`: every page in every theme at 375, 800, 1024 and 1280px, into ./screenshots/
 * (ignored). Builds first unless SCREENSHOTS_SKIP_BUILD=1. SCREENSHOTS_PAGES=home,post and
 * SCREENSHOTS_WIDTHS=375,1280 take some of them. Copy a current selection to docs/screenshots/ for
 * the README.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DESKTOP, MOBILE, launchChromium } from '../tests/e2e/chromium';
import { signInViaApi } from '../tests/e2e/content';
import { buildWorld, openAppPage, themes, useTheme } from '../tests/e2e/pages';
import { startServer } from '../tests/e2e/server';

const outDir = path.resolve(import.meta.dirname, '../screenshots');
const onlyPages = process.env.SCREENSHOTS_PAGES?.split(',');
const onlyWidths = process.env.SCREENSHOTS_WIDTHS?.split(',');
mkdirSync(outDir, { recursive: true });

const server = await startServer({ build: process.env.SCREENSHOTS_SKIP_BUILD !== '1' });
const browser = await launchChromium();
try {
  const setup = await browser.newContext({ baseURL: server.baseURL });
  const world = await buildWorld(await setup.newPage());
  await setup.close();
  for (const theme of themes) {
    for (const [width, options] of [
      ['1280', DESKTOP],
      ['1024', { viewport: { width: 1024, height: 800 } }],
      ['800', { viewport: { width: 800, height: 800 } }],
      ['375', MOBILE],
    ] as const) {
      if (onlyWidths && !onlyWidths.includes(width)) continue;
      const context = await browser.newContext({ baseURL: server.baseURL, ...options });
      const page = await context.newPage();
      await useTheme(page, theme);
      for (const { name, path: route, signedIn } of world.pages) {
        if (onlyPages && !onlyPages.includes(name)) continue;
        if (signedIn) await signInViaApi(page, world.author);
        else await page.request.post('/api/auth/logout');
        await openAppPage(page, route);
        const file = path.join(outDir, `${name}-${theme}-${width}.png`);
        await page.screenshot({ path: file, fullPage: width === '375' ? false : true });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
