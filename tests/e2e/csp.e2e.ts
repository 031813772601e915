/**
 * The strict CSP (server/http/contentSecurity.ts) in a real browser: the inline scripts of
 * prerendered pages (by hash) and of pages rendered per request (by nonce) run, Next's scripts
 * load, and the browser reports no violation.
 */
import { expect, test } from './browser';
import { createPostViaApi, signInViaApi } from './content';
import { createAccount } from './users';

describe('Content-Security-Policy', () => {
  test('lets every page script run, by hash or nonce, with no violation', async ({ openPage }) => {
    const page = await openPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI} ${e.sample}`,
        ),
      );
    });

    // Prerendered at build time: inline scripts allowed by hash.
    for (const path of ['/', '/login', '/createAccount', '/no-such-page']) {
      const response = await page.goto(path);
      expect(response!.headers()['content-security-policy'], path).not.toContain("'unsafe-inline' 'unsafe-eval'");
      await page.waitForLoadState('networkidle');
      // The theme script ran, and the app hydrated (Next's own scripts loaded).
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), path).toBeTruthy();
      expect(await page.evaluate(() => Boolean((window as unknown as { next?: unknown }).next)), path).toBe(true);
    }

    // Rendered per request: the scripts carry this response's nonce.
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const post = await createPostViaApi(page, { message: 'Under a strict policy', tags: ['csp'] });
    // A post page past React's 12,800 bytes: should its Suspense boundary ever be sent after the rest
    // again (server/pages/boundariesInPlace.ts), the scripts revealing it must carry the nonce too.
    for (let i = 1; i <= 14; i++)
      await page.request.post(`/api/posts/${post._id}/comments`, { data: { message: `Comment ${i}` } });
    for (const path of ['/home', `/post/${post._id}`, `/profile/${account.username}`, '/settings']) {
      const response = await page.goto(path);
      const nonce = /'nonce-([^']+)'/.exec(response!.headers()['content-security-policy'])?.[1];
      expect(nonce, path).toBeTruthy();
      expect(await response!.text(), path).toContain(`nonce="${nonce}"`);
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('banner').getByRole('button', { name: 'Create post' }).count(), path).toBe(1);
    }
    expect(violations).toEqual([]);
  });
});
