/**
 * OAuth's consent page in Chromium (issue 67, item 1), driven by two real client libraries: `masto`
 * (PKCE S256, a public client's way) and `megalodon` (the client secret; it has no PKCE). Each app
 * registers itself, the browser opens its authorization URL, signs in through the login page when
 * it has to (and comes back), presses Authorize or Deny, and follows the redirect to the app: a
 * small HTTP server of this file on another port, which records what it was sent. The code is then
 * bought through the library and the token used. Also: the code shown in the page for an app without
 * a redirect, an app's own scheme, a forged form from another port of the same host (refused), the
 * error pages, and `/users/{id}` in a browser.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { createOAuthAPIClient, createRestAPIClient } from 'masto';
import generator from 'megalodon';
import type { Page } from 'playwright-core';
import { baseURL, clickHydrated, expect, test } from './browser';
import { type Account, createAccount, signInWithForm } from './users';

/** The app's side of the redirect: another origin (its own port), recording each visit's query. */
interface AppServer {
  redirectUri: string;
  origin: string;
  visits: URLSearchParams[];
  /** Other pages it serves, by path (a page of another site that posts a form to this one). */
  pages: Map<string, string>;
  close(): Promise<void>;
}

async function startAppServer(): Promise<AppServer> {
  const visits: URLSearchParams[] = [];
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') visits.push(url.searchParams);
    // No referrer, as the consent page itself: the browser sends its form with `Origin: null` too.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'referrer-policy': 'no-referrer' });
    response.end(
      pages.get(url.pathname) ??
        '<!doctype html><html lang="en"><title>Test app</title><h1>Back in the test app</h1></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    redirectUri: `${origin}/callback`,
    origin,
    visits,
    pages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let appServer: AppServer;
beforeAll(async () => {
  appServer = await startAppServer();
});
afterAll(async () => {
  await appServer.close();
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers an app with masto, as a Mastodon app does. */
async function mastoApp(redirectUri: string) {
  const created = await createRestAPIClient({ url: baseURL() }).v1.apps.create({
    clientName: 'Masto test app',
    redirectUris: redirectUri,
    scopes: 'read write',
    website: 'https://masto.example',
  });
  return { clientId: created.clientId!, clientSecret: created.clientSecret! };
}

function authorizePath(query: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams({ response_type: 'code', ...query })}`;
}

/** The consent page's heading for that app, once the page is there. */
async function consentShown(page: Page, appName: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/oauth/authorize');
  await expect.poll(() => page.getByRole('heading', { name: `Allow ${appName} to use your account?` }).count()).toBe(1);
}

/** Presses a button of the consent form and waits for the app's page, where the redirect led. */
async function decideAndReturn(page: Page, button: 'Authorize' | 'Deny'): Promise<URL> {
  const seen = appServer.visits.length;
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((url) => url.origin === appServer.origin);
  await expect.poll(() => page.getByRole('heading', { name: 'Back in the test app' }).count()).toBe(1);
  expect(appServer.visits.length).toBe(seen + 1);
  return new URL(page.url());
}

/** Signs in through the login form the consent page sent the browser to. */
async function signInOnLoginPage(page: Page, account: Account): Promise<void> {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await clickHydrated(page.getByRole('button', { name: 'Sign in' }));
}

/** Every console line about a Content-Security-Policy refusal (a form or redirect the policy blocked). */
function cspRefusals(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) lines.push(message.text());
  });
  return lines;
}

describe('an app asks for access (authorization code)', () => {
  test('masto with PKCE: sign in through the page, authorize, the code comes back to the app and buys a working token', async ({
    openPage,
  }) => {
    const page = await openPage();
    const refusals = cspRefusals(page);
    const account = await createAccount(page);
    const client = await mastoApp(appServer.redirectUri);
    const { verifier, challenge } = pkce();
    const path = authorizePath({
      client_id: client.clientId,
      redirect_uri: appServer.redirectUri,
      scope: 'read write',
      state: 'masto-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    // Not signed in: the login page first, which brings the person back to this very request, once.
    const consentLoads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && new URL(request.url()).pathname === '/oauth/authorize')
        consentLoads.push(request.url());
    });
    await page.goto(path);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe(path);
    await signInOnLoginPage(page, account);
    await consentShown(page, 'Masto test app');
    expect(new URL(page.url()).search).toBe(path.slice('/oauth/authorize'.length));
    await expect.poll(() => page.getByText(`@${account.username}`).count()).toBeGreaterThan(0);
    expect(consentLoads).toEqual([`${baseURL()}${path}`, `${baseURL()}${path}`]);

    const back = await decideAndReturn(page, 'Authorize');
    expect(back.pathname).toBe('/callback');
    expect(back.searchParams.get('state')).toBe('masto-state');
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^[\w-]{43}$/);

    // A public client: no secret, the verifier proves the code is its own.
    const token = await createOAuthAPIClient({ url: baseURL() }).token.create({
      grantType: 'authorization_code',
      clientId: client.clientId,
      redirectUri: appServer.redirectUri,
      code: code!,
      codeVerifier: verifier,
      // masto 8's type wants a client secret with a code; a public client has none (PKCE stands in).
    } as never);
    expect(token.scope).toBe('read write');
    const me = await createRestAPIClient({
      url: baseURL(),
      accessToken: token.accessToken,
    }).v1.accounts.verifyCredentials();
    expect(me.username).toBe(account.username);
    expect(refusals).toEqual([]);
  });

  test('megalodon with its client secret: a signed-in person authorizes, the token works', async ({ openPage }) => {
    const page = await openPage();
    const refusals = cspRefusals(page);
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const megalodon = generator('mastodon', baseURL());
    const app = await megalodon.registerApp('Megalodon test app', {
      redirect_uris: appServer.redirectUri,
      scopes: ['read', 'write'],
      website: 'https://megalodon.example',
    });
    expect(app.url).toContain('/oauth/authorize?');

    await page.goto(app.url!);
    await consentShown(page, 'Megalodon test app');
    const back = await decideAndReturn(page, 'Authorize');
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^[\w-]{43}$/);

    const token = await megalodon.fetchAccessToken(app.client_id, app.client_secret, code!, appServer.redirectUri);
    const me = await generator('mastodon', baseURL(), token.access_token).verifyAccountCredentials();
    expect(me.data.username).toBe(account.username);
    expect(refusals).toEqual([]);
  });

  test('a denial goes back to the app as error=access_denied, with its state, and no code', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const client = await mastoApp(appServer.redirectUri);
    await page.goto(
      authorizePath({ client_id: client.clientId, redirect_uri: appServer.redirectUri, state: 'denied-state' }),
    );
    await consentShown(page, 'Masto test app');
    const back = await decideAndReturn(page, 'Deny');
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 'denied-state' });
  });

  test('an app without a redirect (megalodon, urn:ietf:wg:oauth:2.0:oob) gets the code shown in the page', async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const megalodon = generator('mastodon', baseURL());
    // megalodon's default redirect is the out-of-band one.
    const app = await megalodon.registerApp('Desktop test app', { scopes: ['read'] });
    expect(app.redirect_uri).toBe('urn:ietf:wg:oauth:2.0:oob');

    await page.goto(app.url!);
    await consentShown(page, 'Desktop test app');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Authorization code' }).count()).toBe(1);
    const code = (await page.locator('#code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[\w-]{43}$/);

    const token = await megalodon.fetchAccessToken(app.client_id, app.client_secret, code);
    const me = await generator('mastodon', baseURL(), token.access_token).verifyAccountCredentials();
    expect(me.data.username).toBe(account.username);
  });

  test("an app's own scheme (com.example.app://callback): the policy lets the form go there and the browser follows", async ({
    openPage,
  }) => {
    const page = await openPage();
    const refusals = cspRefusals(page);
    // The browser's request for the app's address, and how it ended (no page loads there: it is
    // the system's to hand to the app, and nobody takes it here).
    const handedOver: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().startsWith('com.example.app://'))
        handedOver.push(`${request.redirectedFrom()?.method()} ${request.url()} ${request.failure()?.errorText}`);
    });
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const client = await mastoApp('com.example.app://callback');
    await page.goto(
      authorizePath({ client_id: client.clientId, redirect_uri: 'com.example.app://callback', state: 'native' }),
    );
    await consentShown(page, 'Masto test app');
    const answered = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/oauth/authorize',
    );
    await page.getByRole('button', { name: 'Authorize' }).click();
    const response = await answered;
    expect(response.status()).toBe(303);
    expect(response.headers().location).toMatch(/^com\.example\.app:\/\/callback\?code=[\w-]{43}&state=native$/);
    // Chromium followed the redirect there: its request came from the form's POST, and ended by
    // being handed over (ERR_ABORTED), not refused by the page's policy (ERR_BLOCKED_BY_CSP).
    await expect.poll(() => handedOver.length).toBe(1);
    expect(handedOver[0]).toBe(`POST ${response.headers().location} net::ERR_ABORTED`);
    expect(refusals).toEqual([]);
  });
});

describe('what cannot be authorized', () => {
  test("another site's form cannot approve for a signed-in person (same site, other port: the cookies go along)", async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const client = await mastoApp(appServer.redirectUri);
    const fields = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: appServer.redirectUri,
      decision: 'approve',
    };
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
      .join('');
    appServer.pages.set(
      '/forged',
      `<!doctype html><html lang="en"><title>Forged</title><form method="post" action="${baseURL()}/oauth/authorize">${inputs}<button>Win a prize</button></form></html>`,
    );
    const seen = appServer.visits.length;
    await page.goto(`${appServer.origin}/forged`);
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/oauth/authorize');
    await page.getByRole('button', { name: 'Win a prize' }).click();
    const response = await answered;
    expect(response.status()).toBe(403);
    const sent = await response.request().allHeaders();
    expect(sent.origin).toBe('null');
    expect(sent['sec-fetch-site']).toBe('same-site');
    // SameSite=Lax does not hold this back: another port of the same host is the same site.
    expect(sent.cookie).toContain('access_token=');
    expect(appServer.visits.length).toBe(seen);
    expect(await response.json()).toMatchObject({ code: 'CrossOrigin' });
  });

  test('an unknown app and a redirect the app did not register show a clear page with a way on', async ({
    openPage,
  }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const client = await mastoApp(appServer.redirectUri);
    for (const path of [
      authorizePath({ client_id: 'no-such-app', redirect_uri: appServer.redirectUri }),
      authorizePath({ client_id: client.clientId, redirect_uri: 'https://evil.example/callback' }),
    ]) {
      const answer = await page.goto(path);
      expect(answer?.status()).toBe(400);
      await expect.poll(() => page.getByRole('heading', { name: 'This app cannot be authorized' }).count()).toBe(1);
      expect(await page.getByText(/Client authentication failed|The redirect uri included is not valid/).count()).toBe(
        1,
      );
      expect(await page.getByText('Go back to the app and start signing in again').count()).toBe(1);
    }
    // The page leads on to the site.
    await page.getByRole('link', { name: 'Go to Posts' }).click();
    await page.waitForURL((url) => url.pathname === '/home');
  });
});

describe("a person's ActivityPub address in a browser", () => {
  test('/users/{id} leads to their profile page; an unknown id is the 404 page', async ({ openPage }) => {
    const page = await openPage();
    const account = await createAccount(page);
    await signInWithForm(page, account);
    const me = (await (await page.request.get('/api/auth/getLoggedUser')).json()) as { _id?: string; id?: string };
    const id = me._id ?? me.id;
    expect(id).toBeTruthy();

    await page.goto(`/users/${id}`);
    await page.waitForURL((url) => url.pathname === `/profile/${account.username}`);
    await expect.poll(() => page.getByRole('heading', { name: account.username }).count()).toBeGreaterThan(0);

    const unknown = await page.goto(`/users/${randomUUIDv7Like()}`);
    expect(unknown?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
  });
});

/** An id shaped like the app's (a UUID) that no one has. */
function randomUUIDv7Like(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}
