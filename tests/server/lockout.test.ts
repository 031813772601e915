/**
 * Wrong passwords lock an account for a doubling while, except for a device that signed in to it
 * before (device cookie): strangers cannot lock its owner out.
 */
import { Redis } from 'ioredis';
import { TEXTS } from '../../lib/texts';
import { deviceCookies } from '../../server/auth/devices';
import { type Lockout, memoryLockout, redisLockout } from '../../server/auth/lockout';
import { type SignedInUser, type TestApp, createTestApp, signIn, totpCode } from './helpers';

let t: TestApp;
let ann: SignedInUser;
let annDevice: string;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_AUTH_PER_ACCOUNT: '3' });
  ann = await signIn(t.app);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: ann.email, password: ann.password },
  });
  annDevice = login.cookies.find((c) => c.name === 'device')?.value ?? 'none';
});
afterAll(() => t.close());

const login = (email: string, password: string, options: { ip?: string; device?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: options.ip ?? '10.1.0.1',
    headers: options.device ? { cookie: `device=${options.device}` } : {},
    payload: { email, password },
  });

describe('sign-in lockout', () => {
  it('locks the account after wrong guesses from anywhere, but lets its known device through', async () => {
    for (let i = 0; i < 3; i++)
      expect((await login(ann.email, 'wrong-guess', { ip: `10.2.0.${i}` })).statusCode).toBe(401);
    // The right password from a device the account has never signed in from waits.
    const locked = await login(ann.email, ann.password, { ip: '10.3.0.1' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('RateLimited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Ann's laptop signs in, and keeps its cookie (HttpOnly, sent only to sign-in, for a year).
    expect(annDevice).not.toBe('none');
    const known = await login(ann.email, ann.password, { device: annDevice });
    expect(known.statusCode).toBe(200);
    expect(known.cookies.find((c) => c.name === 'device')).toMatchObject({
      value: annDevice,
      httpOnly: true,
      path: '/api/auth/login',
      sameSite: 'Lax',
      maxAge: 31_536_000,
    });
  });

  it('counts a known device own wrong guesses, and a cookie is worth nothing for another account', async () => {
    const bob = await signIn(t.app);
    const bobDevice = (await login(bob.email, bob.password)).cookies.find((c) => c.name === 'device')!.value;
    for (let i = 0; i < 3; i++)
      expect((await login(bob.email, 'wrong-guess', { device: bobDevice })).statusCode).toBe(401);
    expect((await login(bob.email, bob.password, { device: bobDevice })).statusCode).toBe(429);
    // The account itself was not locked by them: a new device still gets in.
    expect((await login(bob.email, bob.password)).statusCode).toBe(200);

    const carol = await signIn(t.app);
    for (let i = 0; i < 3; i++) expect((await login(carol.email, 'wrong-guess')).statusCode).toBe(401);
    expect((await login(carol.email, carol.password, { device: annDevice })).statusCode).toBe(429);
    expect((await login(carol.email, carol.password, { device: `${annDevice}x` })).statusCode).toBe(429);
  });
});

describe('concurrent wrong passwords (issue 36)', () => {
  /** Wrong guesses sent at once from five addresses: how many were checked (401), how many refused (429). */
  async function burst(app: TestApp['app'], email: string, guesses: number) {
    const answers = await Promise.all(
      Array.from({ length: guesses }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: `10.9.0.${i % 5}`,
          payload: { email, password: `wrong guess ${i}` },
        }),
      ),
    );
    const count = (status: number) => answers.filter((a) => a.statusCode === status).length;
    return { checked: count(401), refused: count(429), other: guesses - count(401) - count(429) };
  }

  it('checks no more of them than the lock allows, however many arrive at once', async () => {
    const victim = await signIn(t.app);
    expect(await burst(t.app, victim.email, 30)).toEqual({ checked: 3, refused: 27, other: 0 });
    expect((await login(victim.email, victim.password)).statusCode).toBe(429);
  });

  it.runIf(process.env.TEST_REDIS_URL)('the same when the counts are in Redis, for two instances at once', async () => {
    const env = { RATE_LIMIT_AUTH_PER_ACCOUNT: '3', REDIS_URL: process.env.TEST_REDIS_URL! };
    const one = await createTestApp(env);
    const two = await createTestApp(env, { sameDatabaseAs: one });
    try {
      const victim = await signIn(one.app);
      const [a, b] = await Promise.all([burst(one.app, victim.email, 15), burst(two.app, victim.email, 15)]);
      expect(a.checked + b.checked).toBe(3);
      expect(a.refused + b.refused).toBe(27);
    } finally {
      await two.close();
      await one.close();
    }
  });
});

describe('wrong current passwords count like wrong sign-ins (issue 36)', () => {
  const send = (user: SignedInUser, method: 'PATCH' | 'POST' | 'DELETE', url: string, payload: object) =>
    t.app.inject({ method, url, headers: user.headers, payload });

  /** A signed-in user and one request of theirs that asks the current password. */
  const asking: Record<string, () => Promise<[SignedInUser, (password: string) => ReturnType<typeof send>]>> = {
    'PATCH /api/users/updateAccount (a new password)': async () => {
      const user = await signIn(t.app);
      return [
        user,
        (password) => send(user, 'PATCH', '/api/users/updateAccount', { password, newPassword: 'another long one' }),
      ];
    },
    'DELETE /api/users/me': async () => {
      const user = await signIn(t.app);
      return [user, (password) => send(user, 'DELETE', '/api/users/me', { password })];
    },
    'POST /api/auth/2fa/disable': async () => {
      const user = await signIn(t.app);
      const { secret } = (await send(user, 'POST', '/api/auth/2fa/setup', {})).json();
      const code = () => totpCode(secret, -1);
      expect((await send(user, 'POST', '/api/auth/2fa/enable', { code: code() })).statusCode).toBe(200);
      return [user, (password) => send(user, 'POST', '/api/auth/2fa/disable', { password, code: code() })];
    },
  };

  it.each(Object.keys(asking))('%s: locks the account after as many wrong ones as a sign-in', async (name) => {
    const [user, attempt] = await asking[name]();
    for (let i = 0; i < 3; i++) {
      const wrong = await attempt(`wrong guess ${i}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ message: TEXTS.invalidPassword, code: 'InvalidPassword' });
    }
    const locked = await attempt(user.password);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The same lock as a sign-in's: a device the account never used waits too.
    expect((await login(user.email, user.password)).statusCode).toBe(429);
  });

  it('adds up with wrong sign-ins', async () => {
    const user = await signIn(t.app);
    for (let i = 0; i < 2; i++) expect((await login(user.email, `wrong guess ${i}`)).statusCode).toBe(401);
    expect((await send(user, 'DELETE', '/api/users/me', { password: 'wrong again' })).statusCode).toBe(400);
    expect((await send(user, 'DELETE', '/api/users/me', { password: user.password })).statusCode).toBe(429);
  });
});

describe('device cookies', () => {
  it('verify only for the email they were issued for, and not once changed', () => {
    const devices = deviceCookies('secret-'.padEnd(40, 'x'));
    const value = devices.issue('ann@example.com');
    expect(devices.verify(value, 'ann@example.com')).toBe(value.split('.')[0]);
    expect(devices.verify(value, 'bob@example.com')).toBeNull();
    // Its first character changed (a random id starts with 'A' once in 64: then 'B').
    const changed = `${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}`;
    expect(devices.verify(changed, 'ann@example.com')).toBeNull();
    expect(devices.verify(undefined, 'ann@example.com')).toBeNull();
    expect(deviceCookies('other-'.padEnd(40, 'x')).verify(value, 'ann@example.com')).toBeNull();
  });
});

/** One wrong guess, as a sign-in makes it: reserved, then settled wrong. */
async function fail(lockout: Lockout, key: string) {
  expect(await lockout.reserve(key)).toBe(0);
  await lockout.settle(key, true);
}

/** The wait a guess would get now (0: it may be made; the attempt is given back). */
async function waitOf(lockout: Lockout, key: string) {
  const wait = await lockout.reserve(key);
  if (wait === 0) await lockout.settle(key, false);
  return wait;
}

describe('lockout backoff', () => {
  it('doubles the wait with each lockout up to an hour, and forgets after a day', async () => {
    let now = 0;
    const lockout = memoryLockout({ maxFailures: 3, now: () => now });
    const lockFor = async () => {
      for (let i = 0; i < 3; i++) await fail(lockout, 'k');
      return waitOf(lockout, 'k');
    };
    expect(await waitOf(lockout, 'k')).toBe(0);
    const waits: number[] = [];
    for (let round = 0; round < 8; round++) {
      const wait = await lockFor();
      waits.push(wait / 60_000);
      now += wait;
      expect(await waitOf(lockout, 'k')).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    // Two wrong guesses do not lock; guesses in another window do not add up.
    await fail(lockout, 'k');
    await fail(lockout, 'k');
    now += 61_000;
    await fail(lockout, 'k');
    expect(await waitOf(lockout, 'k')).toBe(0);
    now += 86_400_000 + 61_000;
    expect(await lockFor()).toBe(60_000);
  });

  it.runIf(process.env.TEST_REDIS_URL)('keeps the same counts in Redis', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    try {
      const lockout = redisLockout(redis, { maxFailures: 3 });
      const key = `test-${Date.now()}-${Math.random()}`;
      for (let i = 0; i < 3; i++) await fail(lockout, key);
      const first = await waitOf(lockout, key);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(60_000);
      await redis.del(`lockout:lock:${key}`);
      for (let i = 0; i < 3; i++) await fail(lockout, key);
      expect(await waitOf(lockout, key)).toBeGreaterThan(60_000);
      await redis.del(`lockout:lock:${key}`, `lockout:count:${key}`);
    } finally {
      await redis.quit();
    }
  });
});
