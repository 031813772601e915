/**
 * A client API token for the signed-in viewer (`read`), through the OAuth code flow and its consent
 * form, as an app gets one: the bearer of the client API's timeline rows (`npm run bench`,
 * bench/timelines-cpu.ts).
 */
export async function clientApiToken(baseUrl: string, cookie: string): Promise<string> {
  const redirect = 'http://127.0.0.1:9/callback';
  const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
      redirect: 'manual',
    });
  const app = (await (await post('/api/v1/apps', { client_name: 'bench', redirect_uris: redirect })).json()) as {
    client_id: string;
    client_secret: string;
  };
  const query = new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: redirect });
  const page = await (await fetch(`${baseUrl}/oauth/authorize?${query}`, { headers: { cookie } })).text();
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2]
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    ]),
  );
  const approved = await post('/oauth/authorize', { ...fields, decision: 'approve' }, { cookie, origin: baseUrl });
  const code = new URL(approved.headers.get('location') ?? '', baseUrl).searchParams.get('code');
  if (!code) throw new Error(`The consent form answered ${approved.status} without a code`);
  const token = await post('/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirect,
    client_id: app.client_id,
    client_secret: app.client_secret,
  });
  if (token.status !== 200) throw new Error(`No client API token: ${token.status} ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}
