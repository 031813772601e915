/**
 * The app under test over HTTP, as the benches that start it share it (`run.ts`, `alternate.ts`):
 * its home feed's index loaded, seeded accounts signed in.
 */
import { nextLink } from '../lib/links';
import { SEED_PASSWORD } from '../scripts/seed/write';

/** Deep pages start after this many items: 500 pages of the default 12. */
export const DEEP_ITEMS = 500 * 12;

/** The home feed's index loads in the background after start-up; measure what it serves once loaded. */
export async function waitForFeedIndex(baseUrl: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { feedIndex } = (await (await fetch(`${baseUrl}/api/instance/health`)).json()) as { feedIndex: string };
    if (feedIndex !== 'idle' && feedIndex !== 'loading') {
      console.log(
        `Home feed index: ${feedIndex} (waited ${((Date.now() - started) / 1000).toFixed(1)} s after the server answered)`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Signs a seeded account in; the cookies its answer set, as a `Cookie` header. */
export async function login(baseUrl: string, email: string): Promise<string> {
  let res: Response;
  // After a heavy row the server may still shed load (503 from under-pressure): wait it out.
  for (let attempt = 0; ; attempt++) {
    res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: SEED_PASSWORD }),
    });
    if (res.status !== 503 || attempt >= 30) break;
    await res.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (res.status !== 200)
    throw new Error(`Login as ${email} failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Signs each account in, 4 at a time (each sign-in is an argon2 hash); their cookies in order. */
export async function loginAll(baseUrl: string, emails: string[]): Promise<string[]> {
  const signedIn: string[] = new Array(emails.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < emails.length) {
      const index = nextIndex++;
      signedIn[index] = await login(baseUrl, emails[index]);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return signedIn;
}

/**
 * Follows Link headers (40 a page) until DEEP_ITEMS items are behind: each next page's cursor, with
 * the items above it.
 */
export async function pageCursors(
  baseUrl: string,
  cookie: string,
  listPath: string,
): Promise<{ cursor: string; items: number }[]> {
  let next: string | null = `${listPath}${listPath.includes('?') ? '&' : '?'}limit=40`;
  let items = 0;
  const cursors: { cursor: string; items: number }[] = [];
  while (next && items < DEEP_ITEMS) {
    const res: Response = await fetch(baseUrl + next, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`GET ${next}: ${res.status} ${await res.text()}`);
    items += ((await res.json()) as unknown[]).length;
    next = nextLink(res.headers.get('link'));
    const cursor = next && new URL(next, 'http://x').searchParams.get('cursor');
    if (cursor) cursors.push({ cursor, items });
  }
  return cursors;
}

/** Everyone's list's deep pages start after this many posts (100 pages of 12), for the community mix. */
export const COMMUNITY_DEEP_FROM = 1200;

/** Uploads a post picture as the signed-in user; its URL. */
export async function uploadPicture(baseUrl: string, cookie: string, picture: Buffer): Promise<string> {
  const form = new FormData();
  form.set('upload_preset', 'post');
  form.set('file', new Blob([new Uint8Array(picture)], { type: 'image/jpeg' }), 'bench.jpg');
  const res = await fetch(`${baseUrl}/api/uploads`, { method: 'POST', headers: { cookie }, body: form });
  if (res.status !== 201) throw new Error(`Upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { secure_url: string }).secure_url;
}
