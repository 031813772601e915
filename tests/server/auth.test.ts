import { createSigner } from 'fast-jwt';
import { TEXTS } from '../../lib/texts';
import { type TestApp, cookieHeader, cookiesOf, createTestApp, hashWithEarlierSetting, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const signup = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: { cookie } });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie: `refresh_token=${token}` } });

describe('signup', () => {
  it('creates an account; the first one is admin', async () => {
    const res = await signup({ username: 'First_One', email: 'First@Example.com', password: 'password123' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true });
    const row = await t.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'First_One')
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('admin');
    expect(row.email).toBe('first@example.com');
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    const second = await signIn(t.app);
    const secondRow = await t.db.kysely
      .selectFrom('users')
      .select('role')
      .where('id', '=', second.id)
      .executeTakeFirstOrThrow();
    expect(secondRow.role).toBe('member');
  });

  it.each([
    [{ username: 'ab', email: 'a@b.co', password: 'password123' }, 'Username must be 3–30 characters'],
    [{ username: 'a'.repeat(31), email: 'a@b.co', password: 'password123' }, 'Username must be 3–30 characters'],
    [
      { username: 'bad name', email: 'a@b.co', password: 'password123' },
      'Username may contain only letters, digits, _ and .',
    ],
    [{ email: 'a@b.co', password: 'password123' }, 'Username is required'],
    [{ username: 'Search', email: 'a@b.co', password: 'password123' }, 'This username is reserved'],
    [{ username: 'valid_name', email: 'not-an-email', password: 'password123' }, 'Email must be a valid address'],
    [{ username: 'valid_name', email: 'a@b.co', password: 'short' }, 'Password must be 8–128 characters'],
    [{ username: 'valid_name', email: 'a@b.co', password: 'x'.repeat(129) }, 'Password must be 8–128 characters'],
  ])('refuses %j', async (payload, message) => {
    const res = await signup(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'ValidationError' });
  });

  it('answers 409 for a taken username (ignoring case) or email', async () => {
    await signup({ username: 'taken_name', email: 'taken@example.com', password: 'password123' });
    const byName = await signup({ username: 'TAKEN_name', email: 'other@example.com', password: 'password123' });
    expect(byName.statusCode).toBe(409);
    expect(byName.json().message).toBe('Username is already taken');
    const byEmail = await signup({ username: 'other_name', email: 'TAKEN@example.com', password: 'password123' });
    expect(byEmail.statusCode).toBe(409);
    expect(byEmail.json().message).toBe('Email is already registered');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(res.body).not.toMatch(/at .*\.ts/);
  });
});

describe('login and session', () => {
  it('sets HttpOnly SameSite=Lax cookies and getLoggedUser returns the user without secrets', async () => {
    await signup({ username: 'loginuser', email: 'login@example.com', password: 'password123' });
    const res = await login({ email: 'LOGIN@example.com', password: 'password123' });
    expect(res.statusCode).toBe(200);
    for (const cookie of res.cookies.filter((c) => c.name !== 'has_session')) {
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      // The device cookie (lockout.test.ts) goes only to sign-in.
      expect(cookie.path).toBe(cookie.name === 'device' ? '/api/auth/login' : '/');
    }
    const user = (await me(cookieHeader(cookiesOf(res)))).json();
    expect(user).toMatchObject({
      username: 'loginuser',
      email: 'login@example.com',
      avatar: null,
      banner: null,
      description: '',
      postsCount: 0,
    });
    expect(user).not.toHaveProperty('password_hash');
    // The user's own role (not a secret): the client offers admins Delete on any post (API.md, Roles).
    expect(user.role).toBe('member');
  });

  it('re-hashes a password made with earlier parameters at the sign-in that verifies it, not at a failed one', async () => {
    await signup({ username: 'oldhash', email: 'oldhash@example.com', password: 'password123' });
    const earlier = await hashWithEarlierSetting('password123');
    const hashOf = async () =>
      (
        await t.db.kysely
          .selectFrom('users')
          .select('password_hash')
          .where('username', '=', 'oldhash')
          .executeTakeFirstOrThrow()
      ).password_hash;
    await t.db.kysely.updateTable('users').set({ password_hash: earlier }).where('username', '=', 'oldhash').execute();
    expect((await login({ email: 'oldhash@example.com', password: 'wrong-password' })).statusCode).toBe(401);
    expect(await hashOf()).toBe(earlier);
    expect((await login({ email: 'oldhash@example.com', password: 'password123' })).statusCode).toBe(200);
    const renewed = await hashOf();
    expect(renewed).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    expect((await login({ email: 'oldhash@example.com', password: 'password123' })).statusCode).toBe(200);
    expect(await hashOf()).toBe(renewed);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await login({ email: 'login@example.com', password: 'wrong-password' });
    const unknown = await login({ email: 'nobody@example.com', password: 'password123' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: TEXTS.invalidCredentials, code: 'InvalidCredentials' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: TEXTS.notLoggedIn, code: 'Unauthorized' });
  });
});

describe('access token attacks', () => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('refuses alg none, a forged signature, an expired token and a refresh token used as access', async () => {
    const user = await signIn(t.app);
    const [, payload] = user.cookies.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());

    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const forged = createSigner({ key: 'another-secret-'.padEnd(48, 'y'), algorithm: 'HS256' })({
      sub: claims.sub,
      sid: claims.sid,
      typ: 'access',
    });
    const expired = createSigner({
      key: t.config.jwtSecret,
      algorithm: 'HS256',
      clockTimestamp: Date.now() - 3_600_000,
      expiresIn: 60_000,
    })({ sub: claims.sub, sid: claims.sid, typ: 'access' });
    const wrongType = createSigner({ key: t.config.jwtSecret, algorithm: 'HS256', expiresIn: 60_000 })({
      sub: claims.sub,
      sid: claims.sid,
      typ: 'refresh',
    });

    // Read before the signature, `exp` only ever refuses: a forged token with no expiry or an unreadable middle is still refused.
    const unreadable = [
      'no-dots-at-all',
      `${b64({ alg: 'HS256' })}.@@@.x`,
      `${b64({ alg: 'HS256' })}.${b64({ sub: claims.sub })}.x`,
    ];
    for (const token of [none, forged, expired, wrongType, user.cookies.refresh_token, ...unreadable]) {
      const res = await me(`access_token=${token}`);
      expect(res.statusCode).toBe(401);
    }
    expect((await me(user.headers.cookie)).statusCode).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('rotates: the new pair works, the old refresh token does not', async () => {
    const user = await signIn(t.app);
    const res = await refresh(user.cookies.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = cookiesOf(res);
    expect(next.refresh_token).not.toBe(user.cookies.refresh_token);
    expect((await me(`access_token=${next.access_token}`)).statusCode).toBe(200);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it('answers 401 for a missing or unknown token', async () => {
    // No refresh cookie at all says what a person can act on (issue 35), not a raw "No session".
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/refresh' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ message: 'Session expired, please sign in again', code: 'Unauthorized' });
    expect((await refresh('made-up')).statusCode).toBe(401);
  });

  it('concurrent refreshes with one token: exactly one wins, and its session keeps working', async () => {
    const user = await signIn(t.app);
    const results = await Promise.all(Array.from({ length: 5 }, () => refresh(user.cookies.refresh_token)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(4);
    const next = cookiesOf(ok[0]);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });
});

describe('getLoggedUser after the access token lapsed', () => {
  it('refreshes from the refresh cookie and answers the user with new cookies', async () => {
    const user = await signIn(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/getLoggedUser',
      headers: { cookie: `refresh_token=${user.cookies.refresh_token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe(user.username);
    const next = cookiesOf(res);
    expect(next.refresh_token).not.toBe(user.cookies.refresh_token);
    expect((await me(`access_token=${next.access_token}`)).statusCode).toBe(200);
    // The old refresh token was used up by that.
    expect((await refresh(user.cookies.refresh_token)).statusCode).toBe(401);
  });

  it('answers 401 for a bad refresh cookie, and sets the readable session hint only with a session', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/getLoggedUser',
      headers: { cookie: 'refresh_token=made-up' },
    });
    expect(res.statusCode).toBe(401);
    const user = await signIn(t.app);
    expect(user.cookies.has_session).toBe('1');
    const again = await login({ email: user.email, password: user.password });
    const hint = again.cookies.find((c) => c.name === 'has_session')!;
    expect(hint.httpOnly).toBeFalsy();
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(logout.cookies.find((c) => c.name === 'has_session')?.value).toBe('');
  });
});

describe('refresh token reuse outside the race window', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ REFRESH_REUSE_GRACE_MS: '0' });
  });
  afterAll(async () => {
    await strict.close();
  });

  it('revokes the whole family', async () => {
    const user = await signIn(strict.app);
    const first = await strict.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${user.cookies.refresh_token}` },
    });
    const next = cookiesOf(first);
    expect(
      (
        await strict.app.inject({
          method: 'GET',
          url: '/api/auth/getLoggedUser',
          headers: { cookie: `access_token=${next.access_token}` },
        })
      ).statusCode,
    ).toBe(200);
    const reuse = await strict.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${user.cookies.refresh_token}` },
    });
    expect(reuse.statusCode).toBe(401);
    // The thief's or the victim's newer tokens are now dead too.
    const after = await strict.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: `refresh_token=${next.refresh_token}` },
    });
    expect(after.statusCode).toBe(401);
    const access = await strict.app.inject({
      method: 'GET',
      url: '/api/auth/getLoggedUser',
      headers: { cookie: `access_token=${next.access_token}` },
    });
    expect(access.statusCode).toBe(401);
  });
});

describe('logout', () => {
  it('revokes the session and clears the cookies', async () => {
    const user = await signIn(t.app);
    // Used once before, so this process has checked the token: logout must still end it at once.
    expect((await me(user.headers.cookie)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(res.cookies.find((c) => c.name === 'access_token')?.value).toBe('');
    expect((await me(user.headers.cookie)).statusCode).toBe(401);
    expect((await refresh(user.cookies.refresh_token)).statusCode).toBe(401);
  });
});

describe('cross-origin and rate limits', () => {
  it('refuses an unsafe request from another site', async () => {
    const user = await signIn(t.app);
    const byOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...user.headers, origin: 'https://evil.example', host: 'localhost:80' },
    });
    expect(byOrigin.statusCode).toBe(403);
    expect(byOrigin.json()).toEqual({ message: 'Cross-origin requests are not allowed', code: 'CrossOrigin' });
    const bySite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...user.headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(bySite.statusCode).toBe(403);
    expect((await me(user.headers.cookie)).statusCode).toBe(200);
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: {
        ...user.headers,
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(same.statusCode).toBe(200);
  });

  it('answers 429 with Retry-After past the per-account login limit', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AUTH_PER_ACCOUNT: '3' });
    try {
      const attempt = (ip: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: ip,
          payload: { email: 'victim@example.com', password: 'guess-guess' },
        });
      for (let i = 0; i < 3; i += 1) expect((await attempt(`10.0.0.${i}`)).statusCode).toBe(401);
      const blocked = await attempt('10.0.0.99');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().code).toBe('RateLimited');
    } finally {
      await limited.close();
    }
  });

  it.runIf(process.env.TEST_REDIS_URL)('counts in Redis when REDIS_URL is set, shared by instances', async () => {
    const env = { RATE_LIMIT_AUTH_PER_ACCOUNT: '2', REDIS_URL: process.env.TEST_REDIS_URL! };
    const [one, two] = [await createTestApp(env), await createTestApp(env)];
    try {
      const email = `redis-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
      const attempt = (app: TestApp) =>
        app.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'guess-guess' } });
      expect((await attempt(one)).statusCode).toBe(401);
      expect((await attempt(two)).statusCode).toBe(401);
      expect((await attempt(one)).statusCode).toBe(429);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('answers 429 past the per-IP sign-up limit', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AUTH_PER_IP: '2' });
    try {
      const attempt = (n: number) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload: { username: `ip_user${n}`, email: `ip${n}@example.com`, password: 'x' },
        });
      expect((await attempt(1)).statusCode).toBe(400);
      expect((await attempt(2)).statusCode).toBe(400);
      expect((await attempt(3)).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('errors and headers', () => {
  it('answers unknown API paths with a JSON 404 and sets security headers, no X-Powered-By', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No API route GET /api/nothing-here', code: 'RouteNotFound' });
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('publishes the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths).toHaveProperty('/api/auth/login');
  });
});
