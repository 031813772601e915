/**
 * The app under test over HTTP, as the benches that start it share it (`run.ts`, `alternate.ts`):
 * its home feed's index loaded, seeded accounts signed in.
 */
import { SEED_PASSWORD } from '../scripts/seed/write';

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
