/** The private pages the server renders with their first data (server/pages/privatePages.ts). */
import { expect, test } from './browser';
import { createPostViaApi, signInViaApi, uploadViaApi } from './content';
import { THEMES } from '../../lib/limits';
import { createAccount } from './users';

describe('server-rendered private pages', () => {
  test('arrive with the posts in the HTML, hydrate without warnings and without reading again', async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const post = await createPostViaApi(page, { message: 'Rendered by the server', tags: ['ssr'] });
    const banner = (await uploadViaApi(page, 'banner', 260)).secure_url;
    await page.request.patch('/api/users/updateProfile', { data: { banner } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const apiReads: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) apiReads.push(r.url());
    });

    for (const path of ['/home', `/profile/${account.username}`, '/tagged/ssr', `/post/${post._id}`]) {
      // The HTML itself, before any script: the post (or the profile) and the private no-store header.
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
      expect(response.headers()['cache-control'], path).toBe('private, no-store');
      const html = await response.text();
      expect(html, path).toContain(path.startsWith('/profile') ? `${account.username}</h1>` : 'Rendered by the server');
      // The largest paint is requested from the head, before the scripts: the first post image, or the profile's banner.
      const head = html.slice(0, html.indexOf('<script'));
      if (path.startsWith('/profile'))
        expect(head, path).toContain(`<link rel="preload" as="image" href="${banner}" fetchPriority="high"/>`);
      else
        expect(head, path).toMatch(
          /<link rel="preload" as="image" href="[^"]+" imageSrcSet="[^"]+" imageSizes="[^"]+" fetchPriority="high"\/>/,
        );

      apiReads.length = 0;
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      // The signed-in navbar is part of the server's HTML and stays after hydration.
      expect(await page.getByRole('banner').getByRole('button', { name: 'Create post' }).count(), path).toBe(1);
      expect(apiReads, path).toEqual([]);
    }

    // Settings: the forms arrive filled in with the viewer's own account.
    const settings = await page.request.get('/settings', { maxRedirects: 0 });
    expect(settings.headers()['cache-control']).toBe('private, no-store');
    expect(await settings.text()).toContain(`value="${account.email}"`);
    apiReads.length = 0;
    await page.goto('/settings');
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(account.email);
    // Nothing the server sent is read again; the security section (authorised apps, followed tags too), the
    // lists' imports ("Move in and out") and Instagram's import, loaded after the page, read only their own.
    // Polled: its chunk, then its reads, can come after a quiet half-second of network on a busy machine.
    // The bell's stream (and its count) opens on every page once it is idle: not the page's reads.
    const bell = ['/api/notifications/stream', '/api/notifications/unread'];
    await expect
      .poll(() =>
        apiReads
          .map((url) => new URL(url).pathname)
          .filter((path) => !bell.includes(path))
          .sort(),
      )
      .toEqual([
        '/api/auth/2fa',
        '/api/auth/apps',
        '/api/auth/sessions',
        // The last Instagram import (issue 76).
        '/api/imports/instagram',
        // Followed tags (issue 73).
        '/api/tags',
        '/api/users/me/aliases',
        '/api/users/me/blocks',
        '/api/users/me/list-imports',
        '/api/users/me/mutes',
      ]);

    // My own profile's entry goes straight on to it.
    await page.goto('/profile');
    expect(new URL(page.url()).pathname).toBe(`/profile/${account.username}`);

    // The contact page arrives with the instance's address: nothing reads it again.
    const { contactEmail } = await (await page.request.get('/api/instance')).json();
    expect(await (await page.request.get('/contact')).text()).toContain(`href="mailto:${contactEmail}"`);
    apiReads.length = 0;
    await page.goto('/contact');
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: contactEmail }).waitFor();
    expect(apiReads).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a lapsed access token is renewed by the page itself', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    await createPostViaApi(page, { message: 'Still here after 15 minutes', tags: ['renew'] });
    const cookies = await page.context().cookies();
    await page.context().clearCookies();
    await page.context().addCookies(cookies.filter((c) => c.name !== 'access_token'));
    await page.goto('/home');
    await page.getByText('Still here after 15 minutes').waitFor();
    expect((await page.context().cookies()).some((c) => c.name === 'access_token')).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/home');
  });

  test('each theme applies before the first paint of a server-rendered page', async ({ openPage }) => {
    const backgrounds = new Set<string>();
    for (const theme of THEMES) {
      const page = await openPage();
      const account = await createAccount(page);
      await signInViaApi(page, account);
      await page.addInitScript((value) => {
        window.localStorage.setItem('theme', value);
        // The body's colours when the parsed page is complete, before any React code ran.
        document.addEventListener('DOMContentLoaded', () => {
          (window as unknown as { firstPaint: string }).firstPaint =
            `${document.documentElement.getAttribute('data-theme')} ${getComputedStyle(document.body).backgroundColor}`;
        });
      }, theme);
      await page.goto('/home');
      await page.waitForLoadState('networkidle');
      const first = await page.evaluate(() => (window as unknown as { firstPaint: string }).firstPaint);
      const final = `${await page.evaluate(() => document.documentElement.getAttribute('data-theme'))} ${await page.evaluate(() => getComputedStyle(document.body).backgroundColor)}`;
      expect(first).toBe(final);
      expect(final.startsWith(`${theme} `)).toBe(true);
      backgrounds.add(final);
    }
    expect(backgrounds.size).toBe(3);
  });

  test("a long post page's content is in place in the HTML, not swapped in by a script after the first paint", async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInViaApi(page, account);
    const post = await createPostViaApi(page, { message: 'A long conversation', tags: ['ssr'] });
    // Comments enough to pass React's 12,800 bytes, past which it would send the page's boundary
    // out of order (server/pages/boundariesInPlace.ts).
    for (let i = 0; i < 20; i += 1) {
      const message = `Comment ${i}: ${'a calm evening by the water '.repeat(8)}`.slice(0, 250);
      await page.request.post(`/api/posts/${post._id}/comments`, { data: { message } });
    }
    const html = await (await page.request.get(`/post/${post._id}`)).text();
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    expect(main).toContain('A long conversation');
    expect(main).toContain('Comment 19: a calm evening');
    expect(html).not.toContain('$RC(');
  });
});
