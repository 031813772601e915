/**
 * Wrong passwords lock an account for a doubling while, except for a device that signed in to it
 * before (device cookie): strangers cannot lock its owner out.
 */
import { Redis } from 'ioredis';
import { deviceCookies } from '../../server/auth/devices';
import { memoryLockout, redisLockout } from '../../server/auth/lockout';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

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

describe('device cookies', () => {
  it('verify only for the email they were issued for, and not once changed', () => {
    const devices = deviceCookies('secret-'.padEnd(40, 'x'));
    const value = devices.issue('ann@example.com');
    expect(devices.verify(value, 'ann@example.com')).toBe(value.split('.')[0]);
    expect(devices.verify(value, 'bob@example.com')).toBeNull();
    expect(devices.verify(`A${value.slice(1)}`, 'ann@example.com')).toBeNull();
    expect(devices.verify(undefined, 'ann@example.com')).toBeNull();
    expect(deviceCookies('other-'.padEnd(40, 'x')).verify(value, 'ann@example.com')).toBeNull();
  });
});

describe('lockout backoff', () => {
  it('doubles the wait with each lockout up to an hour, and forgets after a day', async () => {
    let now = 0;
    const lockout = memoryLockout({ maxFailures: 3, now: () => now });
    const lockFor = async () => {
      for (let i = 0; i < 3; i++) await lockout.fail('k');
      return lockout.lockedForMs('k');
    };
    expect(await lockout.lockedForMs('k')).toBe(0);
    const waits: number[] = [];
    for (let round = 0; round < 8; round++) {
      const wait = await lockFor();
      waits.push(wait / 60_000);
      now += wait;
      expect(await lockout.lockedForMs('k')).toBe(0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    // Two wrong guesses do not lock; guesses in another window do not add up.
    await lockout.fail('k');
    await lockout.fail('k');
    now += 61_000;
    await lockout.fail('k');
    expect(await lockout.lockedForMs('k')).toBe(0);
    now += 86_400_000 + 61_000;
    expect(await lockFor()).toBe(60_000);
  });

  it.runIf(process.env.TEST_REDIS_URL)('keeps the same counts in Redis', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    try {
      const lockout = redisLockout(redis, { maxFailures: 3 });
      const key = `test-${Date.now()}-${Math.random()}`;
      for (let i = 0; i < 3; i++) await lockout.fail(key);
      const first = await lockout.lockedForMs(key);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(60_000);
      await redis.del(`lockout:lock:${key}`);
      for (let i = 0; i < 3; i++) await lockout.fail(key);
      expect(await lockout.lockedForMs(key)).toBeGreaterThan(60_000);
      await redis.del(`lockout:lock:${key}`, `lockout:count:${key}`);
    } finally {
      await redis.quit();
    }
  });
});
