/** GET/DELETE /api/auth/sessions: a user's devices, each signed out at once (the session cache too). */
import { type SignedInUser, type TestApp, cookieHeader, cookiesOf, createTestApp, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  // The default cache time: revocations must still apply at once.
  t = await createTestApp({ SESSION_CACHE_MS: '60000' });
});
afterAll(() => t.close());

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1';

/** A second sign-in of the same account, from another user agent. */
async function signInAgain(user: SignedInUser, userAgent = PHONE) {
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { email: user.email, password: user.password },
  });
  expect(login.statusCode).toBe(200);
  const cookies = cookiesOf(login);
  return { cookies, headers: { cookie: cookieHeader(cookies) } };
}

const list = (headers: { cookie: string }) => t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers });
const me = (headers: { cookie: string }) =>
  t.app.inject({
    method: 'GET',
    url: '/api/auth/getLoggedUser',
    headers: { cookie: headers.cookie.replace(/refresh_token=[^;]*;?\s*/, '') },
  });

describe('GET /api/auth/sessions', () => {
  it("lists the user's live sessions, marking this device", async () => {
    const ann = await signIn(t.app);
    const phone = await signInAgain(ann);
    const res = await list(ann.headers);
    expect(res.statusCode).toBe(200);
    const sessions = res.json() as {
      id: string;
      userAgent: string | null;
      createdAt: string;
      lastUsedAt: string;
      current: boolean;
    }[];
    expect(sessions).toHaveLength(2);
    for (const s of sessions) {
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'id', 'lastUsedAt', 'userAgent']);
      expect(Date.parse(s.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    }
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => !s.current)!.userAgent).toBe(PHONE);
    // Seen from the phone, the phone is "this device".
    const fromPhone = (await list(phone.headers)).json() as typeof sessions;
    expect(fromPhone.find((s) => s.current)!.userAgent).toBe(PHONE);

    // Another user sees only their own.
    const bob = await signIn(t.app);
    expect((await list(bob.headers)).json()).toHaveLength(1);
  });

  it('moves lastUsedAt on refresh', async () => {
    const ann = await signIn(t.app);
    const [before] = (await list(ann.headers)).json();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${ann.cookies.refresh_token}` },
    });
    expect(refreshed.statusCode).toBe(200);
    const [after] = (await list({ cookie: cookieHeader(cookiesOf(refreshed)) })).json();
    expect(after.id).toBe(before.id);
    expect(after.createdAt).toBe(before.createdAt);
    expect(Date.parse(after.lastUsedAt)).toBeGreaterThan(Date.parse(before.lastUsedAt));
  });

  it('answers 401 to a visitor', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sessions' });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /api/auth/sessions/{id}', () => {
  it('signs the other device out at once, though this process had its token cached', async () => {
    const ann = await signIn(t.app);
    const phone = await signInAgain(ann);
    expect((await me(phone.headers)).statusCode).toBe(200); // now in the session cache
    const phoneId = ((await list(ann.headers)).json() as { id: string; current: boolean }[]).find(
      (s) => !s.current,
    )!.id;

    const res = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${phoneId}`, headers: ann.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await me(phone.headers)).statusCode).toBe(401);
    // Its refresh token is dead too.
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${phone.cookies.refresh_token}` },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await me(ann.headers)).statusCode).toBe(200);
    expect((await list(ann.headers)).json()).toHaveLength(1);
  });

  it("answers 404 for someone else's session or one already gone, 400 for a malformed id", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const [bobSession] = (await list(bob.headers)).json();
    const other = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${bobSession.id}`,
      headers: ann.headers,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: 'Session not found', code: 'SessionNotFound' });
    expect((await me(bob.headers)).statusCode).toBe(200);

    const bad = await t.app.inject({ method: 'DELETE', url: '/api/auth/sessions/not-a-uuid', headers: ann.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Session id must be a UUID', code: 'ValidationError' });
  });

  it('signing this device out clears its cookies and ends the session', async () => {
    const ann = await signIn(t.app);
    const [mine] = (await list(ann.headers)).json();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${mine.id}`, headers: ann.headers });
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies
      .filter((c) => c.value === '')
      .map((c) => c.name)
      .sort();
    expect(cleared).toEqual(['access_token', 'has_session', 'refresh_token']);
    expect((await me(ann.headers)).statusCode).toBe(401);
  });
});

describe('DELETE /api/auth/sessions', () => {
  it('signs out every other device and keeps this one', async () => {
    const ann = await signIn(t.app);
    const phone = await signInAgain(ann);
    const tablet = await signInAgain(ann, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
    await me(phone.headers);
    await me(tablet.headers);
    const bob = await signIn(t.app);

    const res = await t.app.inject({ method: 'DELETE', url: '/api/auth/sessions', headers: ann.headers });
    expect(res.statusCode).toBe(200);
    expect((await me(phone.headers)).statusCode).toBe(401);
    expect((await me(tablet.headers)).statusCode).toBe(401);
    expect((await me(ann.headers)).statusCode).toBe(200);
    expect((await me(bob.headers)).statusCode).toBe(200);
    const left = (await list(ann.headers)).json() as { current: boolean }[];
    expect(left).toEqual([expect.objectContaining({ current: true })]);
  });
});
