/** Two-factor sign-in: setup, enable, sign-in with a TOTP or recovery code, replays, the per-account lock, disable. */
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { TEXTS } from '../../lib/texts';
import { type SignedInUser, type TestApp, cookieHeader, cookiesOf, createTestApp, signIn, totpCode } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_2FA_PER_ACCOUNT: '4' });
});
afterAll(() => t.close());

const post = (user: { headers: { cookie: string } }, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: user.headers, ...(payload ? { payload } : {}) });
const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload });

/** A user with two-factor sign-in on; its secret and recovery codes. */
async function withTwoFactor(): Promise<{ user: SignedInUser; secret: string; recoveryCodes: string[] }> {
  const user = await signIn(t.app);
  const { secret } = (await post(user, '/api/auth/2fa/setup')).json();
  const enabled = await post(user, '/api/auth/2fa/enable', { code: totpCode(secret, -1) });
  expect(enabled.statusCode).toBe(200);
  return { user, secret, recoveryCodes: enabled.json().recoveryCodes };
}

describe('setup and enable', () => {
  it('setup answers an otpauth URL and its secret, kept sealed in the database', async () => {
    const ann = await signIn(t.app);
    const res = await post(ann, '/api/auth/2fa/setup');
    expect(res.statusCode).toBe(200);
    const { otpauthUrl, secret } = res.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(url.pathname)).toContain(ann.username);
    const row = await t.db.kysely
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', ann.id)
      .executeTakeFirstOrThrow();
    expect(row.enabled_at).toBeNull();
    expect(row.secret).not.toContain(secret);
    // Not on until a code confirms it.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/2fa', headers: ann.headers })).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expect((await login({ email: ann.email, password: ann.password })).json()).toEqual({ success: true });
  });

  it('enable needs a setup and a right code, and answers 10 recovery codes stored hashed', async () => {
    const ann = await signIn(t.app);
    const early = await post(ann, '/api/auth/2fa/enable', { code: '123456' });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ message: 'Start the two-factor setup first', code: 'TwoFactorNotSetUp' });

    const { secret } = (await post(ann, '/api/auth/2fa/setup')).json();
    const missing = await post(ann, '/api/auth/2fa/enable', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: SECURITY_TEXTS.twoFactorCodeRequired, code: 'TwoFactorCodeRequired' });
    const wrong = await post(ann, '/api/auth/2fa/enable', { code: totpCode(secret, 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: SECURITY_TEXTS.invalidTwoFactorCode, code: 'InvalidTwoFactorCode' });

    const res = await post(ann, '/api/auth/2fa/enable', { code: totpCode(secret) });
    expect(res.statusCode).toBe(200);
    const { recoveryCodes } = res.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.db.kysely.selectFrom('recovery_codes').selectAll().where('user_id', '=', ann.id).execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes.map((c) => c.replace('-', ''))).not.toContain(row.code_hash);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/2fa', headers: ann.headers })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    const again = await post(ann, '/api/auth/2fa/setup');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('TwoFactorAlreadyOn');
  });

  it('answers 401 to a visitor', async () => {
    for (const url of ['/api/auth/2fa/setup', '/api/auth/2fa/enable', '/api/auth/2fa/disable'])
      expect((await t.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
  });
});

describe('sign-in', () => {
  it('a right password alone answers twoFactorRequired and sets no cookie', async () => {
    const { user } = await withTwoFactor();
    const res = await login({ email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, twoFactorRequired: true });
    expect(res.headers['set-cookie']).toBeUndefined();
    // A wrong password says nothing about a second factor.
    const wrong = await login({ email: user.email, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: TEXTS.invalidCredentials, code: 'InvalidCredentials' });
    // And a code does not stand in for the password.
    const codeOnly = await login({ email: user.email, password: 'not the password', code: '123456' });
    expect(codeOnly.statusCode).toBe(401);
    expect(codeOnly.json().code).toBe('InvalidCredentials');
  });

  it('with a TOTP code signs in; the same code cannot be used again', async () => {
    const { user, secret } = await withTwoFactor();
    const code = totpCode(secret, 0);
    const res = await login({ email: user.email, password: user.password, code });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/getLoggedUser',
      headers: { cookie: cookieHeader(cookiesOf(res)) },
    });
    expect(me.json().username).toBe(user.username);

    const replay = await login({ email: user.email, password: user.password, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: SECURITY_TEXTS.invalidTwoFactorCode, code: 'InvalidTwoFactorCode' });
    expect(replay.headers['set-cookie']).toBeUndefined();
    // The code of an earlier step is no good either once a later one was used.
    const older = await login({ email: user.email, password: user.password, code: totpCode(secret, -1) });
    expect(older.statusCode).toBe(401);
    // The next step's code still works.
    expect((await login({ email: user.email, password: user.password, code: totpCode(secret, 1) })).statusCode).toBe(
      200,
    );
  });

  it('two sign-ins racing with the same code: one gets in', async () => {
    const { user, secret } = await withTwoFactor();
    const code = totpCode(secret, 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => login({ email: user.email, password: user.password, code })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('a recovery code signs in once, in any case and without its dash', async () => {
    const { user, recoveryCodes } = await withTwoFactor();
    const typed = recoveryCodes[3].replace('-', ' ').toUpperCase();
    const res = await login({ email: user.email, password: user.password, code: typed });
    expect(res.statusCode).toBe(200);
    const again = await login({ email: user.email, password: user.password, code: recoveryCodes[3] });
    expect(again.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/2fa', headers: user.headers })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 9,
    });
  });

  it('wrong codes lock the account for a while, even for a right code', async () => {
    const { user, secret } = await withTwoFactor();
    for (let i = 0; i < 4; i += 1) {
      const wrong = await login({ email: user.email, password: user.password, code: '000000' });
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await login({ email: user.email, password: user.password, code: totpCode(secret, 1) });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json().message).toMatch(/^Too many wrong codes, try again in \d+ seconds$/);
    // Another account is not held by it.
    const other = await withTwoFactor();
    expect(
      (await login({ email: other.user.email, password: other.user.password, code: totpCode(other.secret, 1) }))
        .statusCode,
    ).toBe(200);
  });
});

describe('disable', () => {
  it('needs the password and a code; afterwards the password alone signs in', async () => {
    const { user, secret } = await withTwoFactor();
    const noPassword = await post(user, '/api/auth/2fa/disable', { code: totpCode(secret) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({ message: TEXTS.invalidPassword, code: 'InvalidPassword' });
    const wrongCode = await post(user, '/api/auth/2fa/disable', { password: user.password, code: '999999' });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().code).toBe('InvalidTwoFactorCode');
    const noCode = await post(user, '/api/auth/2fa/disable', { password: user.password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().code).toBe('TwoFactorCodeRequired');

    const res = await post(user, '/api/auth/2fa/disable', { password: user.password, code: totpCode(secret, 1) });
    expect(res.statusCode).toBe(200);
    expect(
      await t.db.kysely.selectFrom('recovery_codes').select('user_id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    expect((await login({ email: user.email, password: user.password })).json()).toEqual({ success: true });
    const twice = await post(user, '/api/auth/2fa/disable', { password: user.password, code: totpCode(secret, 1) });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('TwoFactorNotOn');
  });

  it('takes a recovery code instead of a TOTP code', async () => {
    const { user, recoveryCodes } = await withTwoFactor();
    const res = await post(user, '/api/auth/2fa/disable', { password: user.password, code: recoveryCodes[0] });
    expect(res.statusCode).toBe(200);
  });
});
