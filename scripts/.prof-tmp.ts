// temporary: CPU profile of a page's start-up (not committed)
import { writeFileSync } from 'node:fs';
import { MOBILE, launchChromium } from '../tests/e2e/chromium';
import { signInViaApi } from '../tests/e2e/content';
import { buildWorld } from '../tests/e2e/pages';
import { startServer } from '../tests/e2e/server';
import { createAccount } from '../tests/e2e/users';
const server = await startServer({ build: false });
const browser = await launchChromium();
try {
  const setup = await browser.newContext({ baseURL: server.baseURL });
  const sp = await setup.newPage();
  const world = await buildWorld(sp);
  const member = await createAccount(sp);
  await setup.close();
  for (const t of world.pages.filter((p) => ['landing', 'home', 'post', 'tagged'].includes(p.name))) {
    for (let i = 0; i < 3; i++) {
      const ctx = await browser.newContext({ baseURL: server.baseURL, ...MOBILE });
      const page = await ctx.newPage();
      if (t.signedIn) await signInViaApi(page, member);
      await page.goto('/favicon.svg');
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
      await cdp.send('Profiler.start');
      await page.goto(t.path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(800);
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(`/tmp/speed-prof/${t.name}-${i}.cpuprofile`, JSON.stringify(profile));
      await ctx.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
