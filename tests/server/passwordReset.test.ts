import { createHash } from 'node:crypto';
import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { type Mailbox, linkIn, startMailbox } from './mailbox';
import { type TestApp, cookieHeader, cookiesOf, createTestApp, signIn } from './helpers';
import { openStream } from './sse';

let t: TestApp;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  t = await createTestApp({ SMTP_URL: mailbox.url, PUBLIC_URL: 'https://posts.example', INSTANCE_NAME: 'Harbour' });
});
afterAll(async () => {
  mailbox.release();
  await t.close();
  await mailbox.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const forgot = (email: unknown) => post('/api/auth/password/forgot', { email });
const reset = (payload: object) => post('/api/auth/password/reset', payload);
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: { cookie } });
const login = (email: string, password: string) => post('/api/auth/login', { email, password });
const tokensOf = (userId: string) =>
  t.db.kysely
    .selectFrom('email_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', 'password_reset')
    .execute();

/** Asks for a link and reads it from the mail the app sent. */
async function resetLink(email: string): Promise<string> {
  const before = mailbox.to(email).length;
  expect((await forgot(email)).statusCode).toBe(200);
  const resets = () =>
    mailbox
      .to(email)
      .slice(before)
      .filter((m) => m.subject.includes('Reset your password'));
  await vi.waitFor(() => expect(resets().length).toBe(1), { timeout: 30_000 });
  return linkIn(resets()[0], '/resetPassword').searchParams.get('token')!;
}

describe('POST /api/auth/password/forgot', () => {
  it('mails a link to {PUBLIC_URL}/resetPassword in the instance name, as text and HTML', async () => {
    const user = await signIn(t.app);
    const res = await forgot(user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const mail = await mailbox.next(user.email, 'Reset your password');
    expect(mail.subject).toBe('Reset your password — Harbour');
    expect(mail.from).toMatch(/^"?Harbour"? <no-reply@posts\.example>$/);
    const link = linkIn(mail, '/resetPassword');
    expect(link.origin + link.pathname).toBe('https://posts.example/resetPassword');
    expect(mail.html).toContain(`href="${link.href}"`);
    expect(mail.text).toContain('within an hour');
    // Stored only as a hash.
    const [row] = await tokensOf(user.id);
    const token = link.searchParams.get('token')!;
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await t.db.kysely.selectFrom('email_tokens').selectAll().execute())).not.toContain(token);
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const user = await signIn(t.app);
    const known = await forgot(user.email);
    const unknown = await forgot('nobody-here@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    const headerNames = (res: typeof known) => Object.keys(res.headers).sort();
    expect(headerNames(unknown)).toEqual(headerNames(known));
    await t.app.ctx.outbox.settled();
    expect(mailbox.to('nobody-here@example.com')).toEqual([]);
    expect(mailbox.to(user.email).filter((m) => m.subject.includes('Reset')).length).toBe(1);
  });

  it('answers without waiting for the mail server', async () => {
    const user = await signIn(t.app);
    // The sign-up's own mail goes first, so the one held below is the reset's.
    await mailbox.next(user.email, 'Verify your email address');
    mailbox.hold();
    try {
      // The mail server takes no message now; the answer comes anyway.
      const res = await forgot(user.email);
      expect(res.json()).toEqual({ success: true });
      await vi.waitFor(() => expect(mailbox.held()).toBe(1), { timeout: 30_000 });
      expect(mailbox.to(user.email).filter((m) => m.subject.includes('Reset'))).toEqual([]);
    } finally {
      mailbox.release();
    }
    await mailbox.next(user.email, 'Reset your password');
  });

  it('answers 400 with a clear message for a missing or malformed address', async () => {
    for (const [email, message] of [
      [undefined, 'Email is required'],
      ['', 'Email is required'],
      ['not-an-address', 'Email must be a valid address'],
      [42, 'Email must be a valid address'],
    ] as const) {
      const res = await forgot(email);
      expect(res.statusCode, String(email)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await post('/api/auth/password/forgot', {})).statusCode).toBe(400);
  });
});

describe('POST /api/auth/password/reset', () => {
  it('sets the password, signs out every session, and works once', async () => {
    const user = await signIn(t.app);
    const other = cookieHeader(cookiesOf(await login(user.email, user.password)));
    const token = await resetLink(user.email);

    const res = await reset({ token, password: 'a brand new secret' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await me(user.headers.cookie)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'a brand new secret')).statusCode).toBe(200);
    // The link reached the address: it is verified now.
    const signedIn = cookieHeader(cookiesOf(await login(user.email, 'a brand new secret')));
    expect((await me(signedIn)).json().emailVerified).toBe(true);
    await mailbox.next(user.email, 'Your password was reset');

    const again = await reset({ token, password: 'yet another secret' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: EMAIL_TEXTS.invalidLink, code: 'InvalidLink' });
    expect((await login(user.email, 'yet another secret')).statusCode).toBe(401);
  });

  it("ends the old sessions' notification streams: a thief's live feed stops with the reset (issue 36)", async () => {
    const user = await signIn(t.app);
    const stream = await openStream(t.app, user.headers);
    try {
      await stream.next((e) => e.comments.includes('connected'));
      const token = await resetLink(user.email);
      expect((await reset({ token, password: 'a brand new secret' })).statusCode).toBe(200);
      expect(await stream.ends()).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('refuses an expired (1 hour), unknown or missing token with 400 Invalid or expired link', async () => {
    const user = await signIn(t.app);
    const token = await resetLink(user.email);
    const [row] = await tokensOf(user.id);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(60 * 60 * 1000);
    await t.db.kysely
      .updateTable('email_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', row.token_hash)
      .execute();
    for (const payload of [{ token }, { token: 'made-up-token' }, {}, { token: '' }, { token: 7 }]) {
      const res = await reset({ ...payload, password: 'a brand new secret' });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(EMAIL_TEXTS.invalidLink);
    }
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses a bad new password with its rule and keeps the link usable', async () => {
    const user = await signIn(t.app);
    const token = await resetLink(user.email);
    for (const [password, message] of [
      ['short', 'Password must be 8–128 characters'],
      [undefined, 'Password is required'],
      ['tab\tin it!', 'Password must not contain control characters'],
    ] as const) {
      const res = await reset({ token, password });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await reset({ token, password: 'long enough now' })).statusCode).toBe(200);
  });

  it('one reset spends the other links of the account', async () => {
    const user = await signIn(t.app);
    const first = await resetLink(user.email);
    const second = await resetLink(user.email);
    expect(first).not.toBe(second);
    expect((await reset({ token: second, password: 'second secret!' })).statusCode).toBe(200);
    expect((await reset({ token: first, password: 'first secret!!' })).statusCode).toBe(400);
  });

  it('a password changed in Settings spends the links mailed before (issue 36)', async () => {
    const user = await signIn(t.app);
    const token = await resetLink(user.email);
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: user.headers,
      payload: { password: user.password, newPassword: 'changed in settings' },
    });
    expect(changed.statusCode).toBe(200);
    const res = await reset({ token, password: 'set from an old link' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: EMAIL_TEXTS.invalidLink, code: 'InvalidLink' });
    expect((await login(user.email, 'changed in settings')).statusCode).toBe(200);
    // A change of name alone leaves a link alone.
    const kept = await resetLink(user.email);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: user.headers,
      payload: { password: 'changed in settings', username: `${user.username}x` },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await reset({ token: kept, password: 'set from a new link' })).statusCode).toBe(200);
  });

  it('two resets racing with one link: exactly one wins', async () => {
    const user = await signIn(t.app);
    const token = await resetLink(user.email);
    const answers = await Promise.all([
      reset({ token, password: 'racer one secret' }),
      reset({ token, password: 'racer two secret' }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({
      SMTP_URL: mailbox.url,
      RATE_LIMIT_MAILS_PER_ADDRESS: '2',
      RATE_LIMIT_AUTH_PER_IP: '6',
      RATE_LIMIT_AUTH_PER_ACCOUNT: '2',
    });
  });
  afterAll(async () => {
    await limited.close();
  });
  const call = (url: string, payload: object, ip: string) =>
    limited.app.inject({ method: 'POST', url, payload, remoteAddress: ip });

  it('limits forgot per address (whether or not it has an account) and per IP', async () => {
    for (const email of ['someone@example.com', 'Someone@Example.com']) {
      expect((await call('/api/auth/password/forgot', { email }, '10.0.0.1')).statusCode).toBe(200);
    }
    const third = await call('/api/auth/password/forgot', { email: 'someone@example.com' }, '10.0.0.2');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(60);
    expect((await call('/api/auth/password/forgot', { email: 'other@example.com' }, '10.0.0.2')).statusCode).toBe(200);

    const ip = '10.0.0.3';
    const statuses = [];
    for (let i = 0; i < 7; i += 1)
      statuses.push(
        (await call('/api/auth/password/reset', { token: `guess-${i}`, password: 'whatever123' }, ip)).statusCode,
      );
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
    await limited.app.ctx.outbox.settled();
  });

  it('limits resend per user, and one link per token', async () => {
    const user = await signIn(limited.app);
    const resend = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/auth/email/resend',
        headers: user.headers,
        remoteAddress: '10.0.1.1',
      });
    expect((await resend()).statusCode).toBe(200);
    expect((await resend()).statusCode).toBe(200);
    const third = await resend();
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('RateLimited');

    // Tries of one token, from different IPs (so the per-IP limit stays out of it).
    const tries = [];
    for (let i = 0; i < 3; i += 1)
      tries.push((await call('/api/auth/email/verify', { token: 'same-token' }, `10.0.2.${i}`)).statusCode);
    expect(tries).toEqual([400, 400, 429]);
    expect((await call('/api/auth/email/verify', { token: 'other-token' }, '10.0.2.9')).statusCode).toBe(400);
    await limited.app.ctx.outbox.settled();
  });
});
