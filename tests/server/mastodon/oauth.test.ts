/** OAuth 2 of the Mastodon client API (issue 33), driven over HTTP with the `masto` client library. */
import { createOAuthAPIClient, createRestAPIClient } from 'masto';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from '../helpers';
import {
  REDIRECT_URI,
  clientFor,
  consentCode,
  consentFields,
  listenOn,
  pkce,
  registerApp,
  userToken,
} from './oauthFlow';

let t: TestApp;
let url: string;
let alice: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app);
  url = await listenOn(t);
});
afterAll(async () => {
  await t.close();
});

const tokenRequest = (body: Record<string, string>) =>
  fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });

describe('apps', () => {
  it('registers an app and answers its credentials once', async () => {
    const created = await createRestAPIClient({ url }).v1.apps.create({
      clientName: 'Ivory',
      redirectUris: REDIRECT_URI,
      scopes: 'read write',
      website: 'https://tapbots.com',
    });
    expect(created).toMatchObject({ name: 'Ivory', website: 'https://tapbots.com', redirectUri: REDIRECT_URI });
    expect(created.clientId).toMatch(/^[\w-]{40,}$/);
    expect(created.clientSecret).toMatch(/^[\w-]{40,}$/);
    const row = await t.db.kysely
      .selectFrom('oauth_apps')
      .selectAll()
      .where('client_id', '=', created.clientId!)
      .executeTakeFirstOrThrow();
    // Only the secret's hash is stored.
    expect(row.client_secret_hash).not.toContain(created.clientSecret);
  });

  const registration = (body: Record<string, unknown>) =>
    fetch(`${url}/api/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://elk.zone' },
      body: JSON.stringify(body),
    });

  it('refuses an app without a name or redirect, or with unknown scopes, with 422 as Mastodon does', async () => {
    for (const body of [
      { redirect_uris: REDIRECT_URI },
      { client_name: 'x' },
      { client_name: 'x', redirect_uris: 'not a url' },
      { client_name: 'x', redirect_uris: 'https://app.example/cb#frag' },
      { client_name: 'x', redirect_uris: REDIRECT_URI, scopes: 'read admin:everything' },
    ]) {
      const res = await registration(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error).toMatch(/^Validation failed: /);
    }
  });

  it('refuses redirect URIs a browser would run or read locally (javascript:, data:, file:...)', async () => {
    for (const uri of [
      'javascript:alert(document.cookie)',
      'JavaScript://%0Aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      'blob:https://app.example/uuid',
      'about:blank',
    ]) {
      for (const redirect_uris of [uri, [REDIRECT_URI, uri]]) {
        const res = await registration({ client_name: 'x', redirect_uris });
        expect(res.status, uri).toBe(422);
        expect((await res.json()).error).toMatch(/^Validation failed: redirect_uris must not use the [a-z-]+: scheme/);
      }
    }
    // Apps' own schemes and other servers are fine.
    for (const uri of ['com.example.app://callback', 'https://app.example/cb', 'urn:ietf:wg:oauth:2.0:oob'])
      expect((await registration({ client_name: 'x', redirect_uris: uri })).status, uri).toBe(200);
  });

  it('refuses at authorization a dangerous redirect URI an app registered before the rule', async () => {
    const client = await registerApp(url);
    await t.db.kysely
      .updateTable('oauth_apps')
      .set({ redirect_uris: `${REDIRECT_URI}\njavascript:alert(1)` })
      .where('client_id', '=', client.clientId)
      .execute();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: 'javascript:alert(1)',
    });
    const page = await fetch(`${url}/oauth/authorize?${query}`, { headers: alice.headers, redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('The redirect uri included is not valid');
    const form = await fetch(`${url}/oauth/authorize`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...Object.fromEntries(query), decision: 'deny' }),
      redirect: 'manual',
    });
    expect(form.headers.get('location')).toBeNull();
  });

  it('answers CORS preflights for browser apps on other origins', async () => {
    const res = await fetch(`${url}/api/v1/timelines/home`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elk.zone', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
    const token = await fetch(`${url}/oauth/token`, { method: 'OPTIONS', headers: { origin: 'https://elk.zone' } });
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
    // A browser's request carries Origin and gets what it may read; others need no CORS headers.
    const fromBrowser = await fetch(`${url}/api/v1/instance`, { headers: { origin: 'https://elk.zone' } });
    expect(fromBrowser.headers.get('access-control-allow-origin')).toBe('*');
    expect(fromBrowser.headers.get('access-control-expose-headers')).toContain('Link');
    const fromApp = await fetch(`${url}/api/v1/instance`);
    expect(fromApp.status).toBe(200);
    expect(fromApp.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('authorization code flow', () => {
  it('sends a visitor to sign in first, and back to the consent page after', async () => {
    const client = await registerApp(url);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
    });
    const res = await fetch(`${url}/oauth/authorize?${query}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!, url);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('next')).toBe(`/oauth/authorize?${query}`);
  });

  it('shows the consent page with the app and the scopes, and refuses a redirect the app did not register', async () => {
    const client = await registerApp(url);
    const ok = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'read',
    });
    const page = await fetch(`${url}/oauth/authorize?${ok}`, { headers: alice.headers });
    const html = await page.text();
    expect(html).toContain('Allow Test client to use your account?');
    expect(html).toContain(`@${alice.username}`);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");
    const bad = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: 'https://evil.example/cb',
    });
    const refused = await fetch(`${url}/oauth/authorize?${bad}`, { headers: alice.headers });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('The redirect uri included is not valid');
  });

  it('speaks the language of the lang cookie, right to left in Arabic, the app named as it is', async () => {
    const client = await registerApp(url);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'read write',
    });
    const pageIn = async (language: string) =>
      (
        await fetch(`${url}/oauth/authorize?${query}`, {
          headers: { ...alice.headers, cookie: `${alice.headers.cookie}; lang=${language}` },
        })
      ).text();
    const spanish = await pageIn('es');
    expect(spanish).toMatch(/^<!doctype html><html lang="es">/);
    expect(spanish).toContain('¿Permitir que Test client use tu cuenta?');
    expect(spanish).toContain(`pide actuar como <strong>@${alice.username}</strong>`);
    expect(spanish).toContain('<li>leer tus publicaciones, feeds, notificaciones, perfil y listas de personas</li>');
    expect(spanish).toContain(
      '<button type="submit" name="decision" value="approve" class="primary">Autorizar</button>',
    );
    const arabic = await pageIn('ar');
    expect(arabic).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
    expect(arabic).toContain('<strong><bdi>Test client</bdi></strong>');
    // A refusal: the page in the person's language, the server's reason as it said it.
    const refused = await fetch(`${url}/oauth/authorize?${new URLSearchParams({ client_id: 'nobody' })}`, {
      headers: { ...alice.headers, cookie: `${alice.headers.cookie}; lang=de` },
    });
    expect(await refused.text()).toContain('<h1>Diese App kann nicht autorisiert werden</h1>');
  });

  it('trades a code for a token with PKCE (masto), and the token is the same user', async () => {
    const token = await userToken(url, alice);
    const me = await clientFor(url, token).v1.accounts.verifyCredentials();
    expect(me).toMatchObject({ id: alice.id, username: alice.username, acct: alice.username });
    const stored = await t.db.kysely.selectFrom('oauth_tokens').select('token_hash').execute();
    expect(stored.some((row) => row.token_hash === token)).toBe(false);
  });

  it('lets a public client (no secret) in with PKCE, and refuses a wrong verifier or a reused code', async () => {
    const client = await registerApp(url);
    const { verifier, challenge } = pkce();
    const code = await consentCode(url, alice, client, { challenge });
    const wrong = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      code,
      code_verifier: pkce().verifier,
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
    // The refused attempt used the code up: a code buys one try.
    const retried = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      code,
      code_verifier: verifier,
    });
    expect(retried.status).toBe(400);

    const code2 = await consentCode(url, alice, client, { challenge });
    const ok = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      code: code2,
      code_verifier: verifier,
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: 'Bearer', scope: 'read write follow' });
    const again = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      code: code2,
      code_verifier: verifier,
    });
    expect(again.status).toBe(400);
  });

  it('without PKCE the client secret is required', async () => {
    const client = await registerApp(url);
    const code = await consentCode(url, alice, client);
    const noSecret = await tokenRequest({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      code,
    });
    expect(noSecret.status).toBe(401);
    expect((await noSecret.json()).error).toBe('invalid_client');
  });

  it('a denial goes back to the app as access_denied', async () => {
    const client = await registerApp(url);
    const fields = await consentFields(url, alice, {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      state: 's',
    });
    const form = new URLSearchParams({ ...fields, decision: 'deny' });
    const res = await fetch(`${url}/oauth/authorize`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${REDIRECT_URI}?error=access_denied&state=s`);
  });

  /** The consent form as a browser posts it; `fields` default to what alice's consent page carries. */
  const postConsent = (fields: Record<string, string>, headers: Record<string, string>, user = alice) =>
    fetch(`${url}/oauth/authorize`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
  const consentQuery = (clientId: string) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: 'st',
  });
  /** What Chromium sends with a form on a `Referrer-Policy: no-referrer` page of the same site. */
  const FROM_OWN_PAGE = { origin: 'null', 'sec-fetch-site': 'same-origin' };

  it("takes the consent form as browsers send it (Origin: null, no-referrer page) with the page's token", async () => {
    const client = await registerApp(url);
    const fields = await consentFields(url, alice, consentQuery(client.clientId));
    expect(fields.consent_token).toMatch(/^[\w-]{43}$/);
    const approved = await postConsent({ ...fields, decision: 'approve' }, FROM_OWN_PAGE);
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=[\w-]+&state=st$/);
    // And from browsers that send the real origin (or none at all).
    const sameOrigin = await postConsent(
      { ...fields, decision: 'deny' },
      { origin: url, 'sec-fetch-site': 'same-origin' },
    );
    expect(sameOrigin.headers.get('location')).toBe(`${REDIRECT_URI}?error=access_denied&state=st`);
  });

  it("refuses a consent form without this session's token for this app, whatever its Origin", async () => {
    const client = await registerApp(url);
    const other = await registerApp(url);
    const bob = await signIn(t.app);
    const fields = await consentFields(url, alice, consentQuery(client.clientId));
    const { consent_token: _token, ...withoutToken } = fields;
    const bobsToken = (await consentFields(url, bob, consentQuery(client.clientId))).consent_token;
    const otherAppsToken = (await consentFields(url, alice, consentQuery(other.clientId))).consent_token;
    const codes = () =>
      t.db.kysely
        .selectFrom('oauth_codes')
        .innerJoin('oauth_apps', 'oauth_apps.id', 'oauth_codes.app_id')
        .select('code_hash')
        .where('oauth_apps.client_id', '=', client.clientId)
        .execute();
    for (const [what, form] of [
      ['no token', withoutToken],
      ['a wrong token', { ...fields, consent_token: 'x'.repeat(43) }],
      ["another person's token", { ...fields, consent_token: bobsToken }],
      ["another app's token", { ...fields, consent_token: otherAppsToken }],
    ] as const) {
      for (const headers of [FROM_OWN_PAGE, { origin: url }, {}] as Record<string, string>[]) {
        const res = await postConsent({ ...form, decision: 'approve' }, headers);
        expect(res.status, `${what} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.headers.get('location')).toBeNull();
        expect(await res.text()).toContain('This form has expired');
      }
    }
    expect(await codes()).toHaveLength(0);
  });

  it('a consent form from another site is refused even with a stolen token (Origin or Sec-Fetch-Site)', async () => {
    const client = await registerApp(url);
    const fields = await consentFields(url, alice, consentQuery(client.clientId));
    for (const headers of [
      { origin: 'https://evil.example' } as Record<string, string>,
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      // A no-referrer page on another site: Chromium sends `null` there too, but says cross-site.
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': 'same-site' },
    ]) {
      const res = await postConsent({ ...fields, decision: 'approve' }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'CrossOrigin' });
    }
  });

  it('Origin: null is taken on the consent form only: other cookie writes still refuse it', async () => {
    const res = await fetch(`${url}/api/auth/logout`, {
      method: 'POST',
      headers: { ...alice.headers, ...FROM_OWN_PAGE },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'CrossOrigin' });
  });

  it('an app without a redirect (OOB) shows the code, or that access was denied, in the page', async () => {
    const created = await createRestAPIClient({ url }).v1.apps.create({
      clientName: 'Desktop',
      redirectUris: 'urn:ietf:wg:oauth:2.0:oob',
      scopes: 'read',
    });
    const fields = await consentFields(url, alice, {
      response_type: 'code',
      client_id: created.clientId!,
      redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
    });
    const approved = await postConsent({ ...fields, decision: 'approve' }, FROM_OWN_PAGE);
    expect(approved.status).toBe(200);
    expect(approved.headers.get('content-security-policy')).toContain("form-action 'self';");
    expect(await approved.text()).toMatch(/<code id="code">[\w-]{43}<\/code>/);
    const denied = await postConsent({ ...fields, decision: 'deny' }, FROM_OWN_PAGE);
    expect(denied.status).toBe(200);
    const html = await denied.text();
    expect(html).toContain('You did not allow Desktop to use your account.');
    expect(html).toContain('<a href="/">Go to Posts</a>');
  });

  it('error pages say what went wrong and lead on', async () => {
    for (const query of [
      { response_type: 'code', client_id: 'nobody', redirect_uri: REDIRECT_URI },
      { response_type: 'code', client_id: (await registerApp(url)).clientId, redirect_uri: 'https://evil.example/cb' },
    ]) {
      const res = await fetch(`${url}/oauth/authorize?${new URLSearchParams(query)}`, { headers: alice.headers });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('<h1>This app cannot be authorized</h1>');
      expect(html).toContain('<a href="/">Go to Posts</a>');
    }
  });

  it('the consent form refuses a post from another site', async () => {
    const client = await registerApp(url);
    const form = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      decision: 'approve',
    });
    const res = await fetch(`${url}/oauth/authorize`, {
      method: 'POST',
      headers: {
        ...alice.headers,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form,
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
  });
});

describe('tokens', () => {
  it('client_credentials gives an app token that acts for nobody', async () => {
    const client = await registerApp(url);
    const token = await createOAuthAPIClient({ url }).token.create({
      grantType: 'client_credentials',
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri: REDIRECT_URI,
      scope: 'read',
    });
    const res = await fetch(`${url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: 'This method requires an authenticated user' });
  });

  it('a revoked token is refused at once', async () => {
    const client = await registerApp(url);
    const { verifier, challenge } = pkce();
    const code = await consentCode(url, alice, client, { challenge });
    const oauth = createOAuthAPIClient({ url });
    const { accessToken } = await oauth.token.create({
      grantType: 'authorization_code',
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri: REDIRECT_URI,
      code,
      codeVerifier: verifier,
    } as never);
    const masto = clientFor(url, accessToken);
    await masto.v1.accounts.verifyCredentials();
    await oauth.revoke({ clientId: client.clientId, clientSecret: client.clientSecret, token: accessToken });
    const res = await fetch(`${url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'The access token is invalid' });
  });

  it('a password change ends app tokens as it ends other sessions', async () => {
    const bob = await signIn(t.app);
    const token = await userToken(url, bob);
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).status).toBe(200);
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: bob.headers,
      payload: { password: bob.password, newPassword: 'another good password' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).status).toBe(401);
  });

  it('a suspension ends app tokens at once', async () => {
    const admin = await signIn(t.app);
    await makeAdmin(t, admin);
    const dave = await signIn(t.app);
    const auth = { authorization: `Bearer ${await userToken(url, dave)}` };
    expect((await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).status).toBe(200);
    const suspended = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${dave.username}/suspend`,
      headers: admin.headers,
      payload: { note: 'spam' },
    });
    expect(suspended.statusCode).toBe(200);
    expect((await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).status).toBe(401);
  });

  it("an account's deletion ends its app tokens and removes them", async () => {
    const erin = await signIn(t.app);
    const auth = { authorization: `Bearer ${await userToken(url, erin)}` };
    expect((await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).status).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: erin.headers,
      payload: { password: erin.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: auth })).status).toBe(401);
    const left = await t.db.kysely.selectFrom('oauth_tokens').select('id').where('user_id', '=', erin.id).execute();
    expect(left).toEqual([]);
  });

  it('scopes are enforced per endpoint: a read token cannot post', async () => {
    const token = await userToken(url, alice, 'read');
    const res = await fetch(`${url}/api/v1/statuses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'hello' }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'This action is outside the authorized scopes' });
  });

  it('the bearer check ignores cookies: a cookie alone is no token on the client API', async () => {
    const res = await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: alice.headers });
    expect(res.status).toBe(401);
  });

  it("a token's use marks its session used, at most once an hour", async () => {
    const dan = await signIn(t.app);
    const token = await userToken(url, dan);
    const longAgo = '2026-01-01T00:00:00.000Z';
    const tokenSession = t.db.kysely
      .updateTable('sessions')
      .set({ last_used_at: longAgo })
      .where('user_agent', 'like', '%Test client%')
      .where('user_id', '=', dan.id);
    const lastUsed = async () =>
      (
        await t.db.kysely
          .selectFrom('sessions')
          .select('last_used_at')
          .where('user_id', '=', dan.id)
          .where('user_agent', 'like', '%Test client%')
          .executeTakeFirstOrThrow()
      ).last_used_at;
    const use = async () =>
      expect(
        (await fetch(`${url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(200);
    await tokenSession.execute();
    await use();
    expect(await lastUsed()).not.toBe(longAgo);
    await tokenSession.execute();
    await use();
    expect(await lastUsed()).toBe(longAgo);
  });
});

describe('authorised apps in Settings', () => {
  it('lists the apps a person authorised, and revoking one ends its tokens', async () => {
    const carol = await signIn(t.app);
    const token = await userToken(url, carol);
    const list = await t.app.inject({ method: 'GET', url: '/api/auth/apps', headers: carol.headers });
    expect(list.statusCode).toBe(200);
    const apps = list.json();
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({
      name: 'Test client',
      website: 'https://client.example',
      scopes: ['read', 'write', 'follow'],
    });
    const other = await t.app.inject({ method: 'DELETE', url: `/api/auth/apps/${apps[0].id}`, headers: alice.headers });
    expect(other.statusCode).toBe(404);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/apps/${apps[0].id}`,
      headers: carol.headers,
    });
    expect(revoked.statusCode).toBe(204);
    const res = await fetch(`${url}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/apps', headers: carol.headers })).json()).toEqual([]);
  });
});
