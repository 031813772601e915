/**
 * The client API tests' helpers: the app listening on a real port, OAuth's code flow through the
 * consent form, and what each test file sets up with them (people with their clients, a photo
 * uploaded, a status posted, a refusal read).
 */
import { readFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MastoHttpError, createOAuthAPIClient, createRestAPIClient, type mastodon } from 'masto';
import { type SignedInUser, type TestApp, signIn } from '../helpers';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export async function listenOn(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export interface RegisteredApp {
  clientId: string;
  clientSecret: string;
}

export async function registerApp(url: string, scopes = 'read write follow push'): Promise<RegisteredApp> {
  const created = await createRestAPIClient({ url }).v1.apps.create({
    clientName: 'Test client',
    redirectUris: REDIRECT_URI,
    scopes,
    website: 'https://client.example',
  });
  return { clientId: created.clientId!, clientSecret: created.clientSecret! };
}

/** `<input type="hidden" name="x" value="y">` of the consent form. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]] = match[2]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  return fields;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Opens the consent page as `user` and returns its form's fields (the request's, and the CSRF token). */
export async function consentFields(
  url: string,
  user: SignedInUser,
  query: Record<string, string>,
): Promise<Record<string, string>> {
  const page = await fetch(`${url}/oauth/authorize?${new URLSearchParams(query)}`, {
    headers: user.headers,
    redirect: 'manual',
  });
  if (page.status !== 200) throw new Error(`consent page: ${page.status}`);
  return hiddenFields(await page.text());
}

/** Opens the consent page as `user`, approves, and returns the code the redirect carries. */
export async function consentCode(
  url: string,
  user: SignedInUser,
  client: RegisteredApp,
  options: { scope?: string; challenge?: string; state?: string } = {},
): Promise<string> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: REDIRECT_URI,
    scope: options.scope ?? 'read write follow',
    state: options.state ?? 'state-1',
    ...(options.challenge ? { code_challenge: options.challenge, code_challenge_method: 'S256' } : {}),
  });
  const form = new URLSearchParams({
    ...(await consentFields(url, user, Object.fromEntries(query))),
    decision: 'approve',
  });
  const approved = await fetch(`${url}/oauth/authorize`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  const location = new URL(approved.headers.get('location') ?? '', url);
  if (approved.status !== 303 || !location.href.startsWith(REDIRECT_URI))
    throw new Error(`consent: ${approved.status}`);
  if (location.searchParams.get('state') !== (options.state ?? 'state-1')) throw new Error('state not carried');
  return location.searchParams.get('code')!;
}

/** The whole code flow with PKCE: a token for `user` with `scope`. */
export async function userToken(url: string, user: SignedInUser, scope = 'read write follow'): Promise<string> {
  const client = await registerApp(url);
  const { verifier, challenge } = pkce();
  const code = await consentCode(url, user, client, { scope, challenge });
  const token = await createOAuthAPIClient({ url }).token.create({
    grantType: 'authorization_code',
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: REDIRECT_URI,
    code,
    codeVerifier: verifier,
  } as Parameters<mastodon.oauth.Client['token']['create']>[0]);
  return token.accessToken;
}

export const clientFor = (url: string, accessToken: string) => createRestAPIClient({ url, accessToken });

/** Someone signed in, with a token got through the code flow and a masto client holding it. */
export interface ClientUser extends SignedInUser {
  token: string;
  api: mastodon.rest.Client;
}

/** A new person signed in on `t` (listening at `url`), with a token for `scope` and a client on it. */
export async function clientUser(t: TestApp, url: string, scope?: string): Promise<ClientUser> {
  const user = await signIn(t.app);
  const token = await userToken(url, user, scope);
  return { ...user, token, api: clientFor(url, token) };
}

/** The app listening on a port, and `count` new people there with their clients (`clientUser`). */
export async function clientsOn(
  t: TestApp,
  count: number,
  scope?: string,
): Promise<{ url: string; users: ClientUser[] }> {
  const url = await listenOn(t);
  const users = [];
  for (let i = 0; i < count; i++) users.push(await clientUser(t, url, scope));
  return { url, users };
}

/** The photo the client API tests upload: a 32×32 PNG. */
export const PHOTO_PNG = path.resolve(import.meta.dirname, '../../fixtures/pngsuite/png/basn2c08.png');

/** Uploads the test photo through `POST /api/v2/media`, with its description when given. */
export async function uploadPhoto(api: mastodon.rest.Client, description?: string) {
  const file = new Blob([await readFile(PHOTO_PNG)], { type: 'image/png' });
  return api.v2.media.create({ file, ...(description ? { description } : {}) });
}

/** A status of one photo (described 'A test card') saying `status`. */
export async function postStatus(api: mastodon.rest.Client, status: string) {
  const media = await uploadPhoto(api, 'A test card');
  return api.v1.statuses.create({ status, mediaIds: [media.id] });
}

/** The status and message of a refused call; fails when the call is not refused. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MastoHttpError) return { status: error.statusCode, message: error.message };
    throw error;
  }
  throw new Error('the call was not refused');
}

/** The HTTP status a client call ends with: 200 when it answers, the refusal's status when masto throws one. */
export async function answerStatus(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof MastoHttpError) return error.statusCode;
    throw error;
  }
}
