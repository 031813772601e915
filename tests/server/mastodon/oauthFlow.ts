/** The client API tests' helpers: the app listening on a real port, and OAuth's code flow through the consent form. */
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { MastoHttpError, createOAuthAPIClient, createRestAPIClient, type mastodon } from 'masto';
import type { SignedInUser, TestApp } from '../helpers';

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
