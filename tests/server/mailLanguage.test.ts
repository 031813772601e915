/** Mails in the recipient's language (issue 75): the account's `language`, English when it has none. */
import { type Mailbox, linkIn, startMailbox } from './mailbox';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
  t = await createTestApp({ SMTP_URL: mailbox.url, PUBLIC_URL: 'https://posts.example', INSTANCE_NAME: 'Harbour' });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

const inject = (method: 'POST' | 'PATCH', url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, payload, headers });

async function speaking(language: string): Promise<SignedInUser> {
  const user = await signIn(t.app);
  const res = await inject('PATCH', '/api/users/updateProfile', { language }, user.headers);
  expect(res.statusCode).toBe(200);
  return user;
}

/** Asks for a reset link and opens it: the mails "Reset your password" and "Your password was reset". */
async function resetPassword(user: SignedInUser, subject: string) {
  expect((await inject('POST', '/api/auth/password/forgot', { email: user.email })).statusCode).toBe(200);
  const mail = await mailbox.next(user.email, subject);
  const token = linkIn(mail, '/resetPassword').searchParams.get('token');
  const res = await inject('POST', '/api/auth/password/reset', { token, password: 'another horse battery' });
  expect(res.statusCode).toBe(200);
  return mail;
}

describe('mails in the recipient language', () => {
  it('writes to a person who chose Spanish in Spanish, the HTML marked as such', async () => {
    const user = await speaking('es');
    const reset = await resetPassword(user, 'Restablece');
    expect(reset.subject).toBe('Restablece tu contraseña — Harbour');
    expect(reset.text).toContain(
      'Alguien ha pedido restablecer la contraseña de tu cuenta de Harbour. Para elegir una contraseña nueva, abre este enlace en el plazo de una hora:',
    );
    expect(reset.html).toContain('<html lang="es">');
    expect(reset.html).toContain('>Elegir una contraseña nueva</a>');
    expect(reset.html).toContain('O copia esta dirección en tu navegador: https://posts.example/resetPassword?token=');
    const changed = await mailbox.next(user.email, 'Se ha restablecido');
    expect(changed.subject).toBe('Se ha restablecido tu contraseña — Harbour');
    expect(changed.text).toContain('Si no has sido tú, vuelve a restablecerla en https://posts.example/login.');
  });

  it('writes the email change mails in the language too, to the new address and the old', async () => {
    const user = await speaking('de');
    const newEmail = `moved_${user.email}`;
    const res = await inject(
      'PATCH',
      '/api/users/updateAccount',
      { email: user.email, newEmail, password: user.password },
      user.headers,
    );
    expect(res.statusCode).toBe(200);
    const confirm = await mailbox.next(newEmail, 'Bestätige');
    expect(confirm.subject).toBe('Bestätige deine neue E-Mail-Adresse — Harbour');
    const token = linkIn(confirm, '/verifyEmail').searchParams.get('token');
    expect((await inject('POST', '/api/auth/email/verify', { token })).statusCode).toBe(200);
    const told = await mailbox.next(user.email, 'geändert');
    expect(told.text).toContain(`Die E-Mail-Adresse deines Harbour-Kontos ist jetzt ${newEmail}.`);
  });

  it('sets Arabic right to left', async () => {
    const user = await speaking('ar');
    expect((await inject('POST', '/api/auth/email/resend', {}, user.headers)).statusCode).toBe(200);
    const mail = await mailbox.next(user.email, 'تحقق');
    expect(mail.subject).toBe('تحقق من عنوان بريدك الإلكتروني — Harbour');
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
  });

  it('gives a new account the language this browser chose (the lang cookie), its first mail in it', async () => {
    const signUp = async (username: string, cookie: string) => {
      const email = `${username}@example.com`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { username, email, password: 'correct horse battery' },
        headers: { cookie },
      });
      expect(res.statusCode).toBe(201);
      const row = await t.db.kysely
        .selectFrom('users')
        .select('language')
        .where('email', '=', email)
        .executeTakeFirst();
      return { email, language: row?.language };
    };
    const french = await signUp('chose_french', 'lang=fr');
    expect(french.language).toBe('fr');
    const welcome = await mailbox.next(french.email, 'Vérifiez');
    expect(welcome.subject).toBe('Vérifiez votre adresse e-mail — Harbour');
    expect(welcome.text).toContain(
      'Bienvenue sur Harbour\u00a0! Veuillez confirmer qu’il s’agit bien de votre adresse\u00a0:',
    );
    // A value the app does not speak is no choice: English, and none kept.
    const unknown = await signUp('chose_klingon', 'lang=tlh');
    expect(unknown.language).toBeNull();
    expect((await mailbox.next(unknown.email, 'Verify')).subject).toBe('Verify your email address — Harbour');
  });

  it('writes in English, as ever, to a person who chose no language (and to a new account)', async () => {
    const user = await signIn(t.app);
    const welcome = await mailbox.next(user.email, 'Verify');
    expect(welcome.subject).toBe('Verify your email address — Harbour');
    expect(welcome.text).toContain('Welcome to Harbour! Please confirm that this is your address:');
    const reset = await resetPassword(user, 'Reset your password');
    expect(reset.text).toContain(
      'Someone asked to reset the password of your Harbour account. To choose a new password, open this link within an hour:',
    );
    expect(reset.html).toContain('<html lang="en">');
    expect(reset.html).toContain('Or copy this address into your browser: https://posts.example/resetPassword?token=');
    const changed = await mailbox.next(user.email, 'Your password was reset');
    expect(changed.text).toContain('If this was not you, reset it again at https://posts.example/login.');
  });
});
