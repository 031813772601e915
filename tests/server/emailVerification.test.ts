import { EMAIL_TEXTS } from '../../lib/emailTexts';
import { logMailer } from '../../server/mail/mailer';
import { mails } from '../../server/mail/messages';
import { type Mailbox, linkIn, startMailbox } from './mailbox';
import { type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  t = await createTestApp({ SMTP_URL: mailbox.url, INSTANCE_NAME: 'Harbour' });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

const post = (url: string, payload: object = {}, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const verify = (token: unknown) => post('/api/auth/email/verify', { token });
const me = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: { cookie } })).json();
const login = (email: string, password: string) => post('/api/auth/login', { email, password });
const tokenOf = (mail: Parameters<typeof linkIn>[0]) => linkIn(mail, '/verifyEmail').searchParams.get('token')!;

describe('sign-up', () => {
  it('mails a link; the user can use the app unverified until it is opened, once', async () => {
    const user = await signIn(t.app);
    expect(await me(user.headers.cookie)).toMatchObject({
      email: user.email,
      emailVerified: false,
      pendingEmail: null,
    });
    const mail = await mailbox.next(user.email, 'Verify your email address');
    expect(mail.subject).toBe('Verify your email address — Harbour');
    const link = linkIn(mail, '/verifyEmail');
    // Without PUBLIC_URL, links name the server's own address.
    expect(link.origin).toBe(`http://127.0.0.1:${t.config.port}`);

    // The link works in any browser: no session needed.
    const res = await verify(link.searchParams.get('token'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, email: user.email });
    expect((await me(user.headers.cookie)).emailVerified).toBe(true);
    const again = await verify(link.searchParams.get('token'));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: EMAIL_TEXTS.invalidLink, code: 'InvalidLink' });
  });

  it('refuses a missing, unknown or expired token with 400', async () => {
    const user = await signIn(t.app);
    const token = tokenOf(await mailbox.next(user.email, 'Verify'));
    await t.db.kysely
      .updateTable('email_tokens')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    for (const value of [token, 'unknown', '', undefined, 12]) {
      const res = await verify(value);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(EMAIL_TEXTS.invalidLink);
    }
    expect((await me(user.headers.cookie)).emailVerified).toBe(false);
  });
});

describe('POST /api/auth/email/resend', () => {
  it('mails a new link that replaces the old one; a verified user gets 400; a visitor 401', async () => {
    const user = await signIn(t.app);
    const first = tokenOf(await mailbox.next(user.email, 'Verify'));
    const res = await post('/api/auth/email/resend', {}, user.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    await vi.waitFor(() => expect(mailbox.to(user.email).length).toBe(2), { timeout: 30_000 });
    const second = tokenOf(mailbox.to(user.email)[1]);
    expect(second).not.toBe(first);
    expect((await verify(first)).statusCode).toBe(400);
    expect((await verify(second)).statusCode).toBe(200);

    const verified = await post('/api/auth/email/resend', {}, user.headers);
    expect(verified.statusCode).toBe(400);
    expect(verified.json().message).toBe(EMAIL_TEXTS.alreadyVerified);
    expect((await post('/api/auth/email/resend')).statusCode).toBe(401);
  });
});

describe('changing the email', () => {
  const update = (user: Awaited<ReturnType<typeof signIn>>, newEmail: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: user.headers,
      payload: { email: user.email, newEmail, password: user.password },
    });

  it('takes effect only when the link mailed to the new address is opened; the old address is told', async () => {
    const user = await signIn(t.app);
    const newEmail = `moved_${user.email}`;
    const res = await update(user, newEmail.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: user.email, pendingEmail: newEmail });
    expect((await login(newEmail, user.password)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(200);

    const mail = await mailbox.next(newEmail, 'Confirm your new email address');
    const opened = await verify(tokenOf(mail));
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ success: true, email: newEmail });
    expect(await me(user.headers.cookie)).toMatchObject({ email: newEmail, pendingEmail: null, emailVerified: true });
    expect((await login(newEmail, user.password)).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(401);

    const told = await mailbox.next(user.email, 'Your email address was changed');
    expect(told.text).toContain(newEmail);
    expect(told.text).not.toMatch(/token=/);
  });

  it('a reset link sent to the old address stops working once the email changed', async () => {
    const user = await signIn(t.app);
    await post('/api/auth/password/forgot', { email: user.email });
    const resetMail = await mailbox.next(user.email, 'Reset your password');
    const newEmail = `second_${user.email}`;
    await update(user, newEmail);
    expect((await verify(tokenOf(await mailbox.next(newEmail, 'Confirm')))).statusCode).toBe(200);
    const token = linkIn(resetMail, '/resetPassword').searchParams.get('token');
    const res = await post('/api/auth/password/reset', { token, password: 'taken over!!' });
    expect(res.statusCode).toBe(400);
    expect((await login(newEmail, user.password)).statusCode).toBe(200);
  });

  it('a newer change replaces the pending one, and going back to the current address cancels it', async () => {
    const user = await signIn(t.app);
    await update(user, `a_${user.email}`);
    const firstLink = tokenOf(await mailbox.next(`a_${user.email}`, 'Confirm'));
    await update(user, `b_${user.email}`);
    const secondLink = tokenOf(await mailbox.next(`b_${user.email}`, 'Confirm'));
    expect((await verify(firstLink)).statusCode).toBe(400);

    const back = await update(user, user.email);
    expect(back.json().user).toMatchObject({ email: user.email, pendingEmail: null });
    expect((await verify(secondLink)).statusCode).toBe(400);
    expect((await me(user.headers.cookie)).email).toBe(user.email);
  });

  it('answers 409 and changes nothing when the address was taken before the link was opened', async () => {
    const user = await signIn(t.app);
    const wanted = `wanted_${user.email}`;
    await update(user, wanted);
    const token = tokenOf(await mailbox.next(wanted, 'Confirm'));
    const signup = await post('/api/auth/signup', {
      username: `w${Date.now()}`,
      email: wanted,
      password: 'password123',
    });
    expect(signup.statusCode).toBe(201);
    const res = await verify(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Email is already registered');
    expect(await me(user.headers.cookie)).toMatchObject({ email: user.email, pendingEmail: wanted });
  });

  it('resend mails the pending address again', async () => {
    const user = await signIn(t.app);
    const newEmail = `again_${user.email}`;
    await update(user, newEmail);
    await mailbox.next(newEmail, 'Confirm');
    expect((await post('/api/auth/email/resend', {}, user.headers)).statusCode).toBe(200);
    await vi.waitFor(() => expect(mailbox.to(newEmail).length).toBe(2), { timeout: 30_000 });
    expect((await verify(tokenOf(mailbox.to(newEmail)[1]))).statusCode).toBe(200);
    expect((await me(user.headers.cookie)).email).toBe(newEmail);
  });
});

describe('without SMTP_URL', () => {
  it('writes each message, with its link, to the log', async () => {
    const lines: string[] = [];
    const mailer = logMailer({ warn: (_object, message) => lines.push(message) });
    await mailer.send(
      mails.passwordReset(
        { name: 'Harbour', url: 'http://localhost:3000' },
        'a@example.com',
        'http://localhost:3000/resetPassword?token=abc',
        null,
      ),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('SMTP_URL is not set');
    expect(lines[0]).toContain('http://localhost:3000/resetPassword?token=abc');
  });

  it('the app still signs people up and answers forgot', async () => {
    const plain = await createTestApp();
    try {
      const user = await signIn(plain.app);
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        payload: { email: user.email },
      });
      expect(res.statusCode).toBe(200);
      await plain.app.ctx.outbox.settled();
      const rows = await plain.db.kysely
        .selectFrom('email_tokens')
        .select('purpose')
        .where('user_id', '=', user.id)
        .execute();
      expect(rows.map((r) => r.purpose).sort()).toEqual(['password_reset', 'verify_email']);
    } finally {
      await plain.close();
    }
  });
});

it('HTML escapes what it shows', () => {
  const mail = mails.emailChanged(
    { name: '<b>Harbour</b>', url: 'http://x' },
    'a@example.com',
    'new"<x>@example.com',
    null,
  );
  expect(mail.html).not.toContain('<b>Harbour</b>');
  expect(mail.html).toContain('&lt;b&gt;Harbour&lt;/b&gt;');
  expect(mail.text).toContain('<b>Harbour</b>');
});
