import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setAppTexts } from '../../../lib/i18n/appTexts';
import { pageIntl } from '../../../lib/i18n/pageIntl';
import { errorMessage, OFFLINE_MESSAGE } from '../../../services/apiClient';
import { waitInWords } from '../../../lib/retryAfter';
import {
  isRefusal,
  RATE_LIMIT_SHAPES,
  rateLimitText,
  refusalText,
  TRANSLATED_CODES,
} from '../../../services/errorTexts';

/** A refusal as axios hands it over: the API's body on the response. */
const refusal = (code: string, message: string) => ({ response: { status: 401, data: { code, message } } });
const offline = Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK' });
/** A 429 as axios hands it over, with its Retry-After header. */
const rateLimited = (message: string, retryAfter?: string) => ({
  response: { status: 429, data: { code: 'RateLimited', message }, headers: { 'retry-after': retryAfter } },
});

afterEach(() => setAppTexts(pageIntl('en')));

describe('refusals in the page’s language (issue 75)', () => {
  it('shows the catalogue’s text for a known code, in Spanish and in Arabic', () => {
    setAppTexts(pageIntl('es'));
    expect(errorMessage(refusal('InvalidCredentials', 'Invalid email or password'))).toBe(
      'Correo electrónico o contraseña incorrectos',
    );
    expect(errorMessage(offline)).toBe('Parece que no tienes conexión. Compruébala y vuelve a intentarlo.');
    setAppTexts(pageIntl('ar'));
    expect(errorMessage(refusal('InvalidCredentials', 'Invalid email or password'))).toBe(
      'البريد الإلكتروني أو كلمة المرور غير صحيحة',
    );
    // The limit the server wrote into its message (4) comes from the shared constant, in Arabic's plural.
    expect(errorMessage(refusal('TooManyUploadsQueued', 'You already have 4 images being processed'))).toBe(
      'لديك بالفعل 4 صور قيد المعالجة: انتظر حتى تنتهي إحداها، ثم أعد الرفع',
    );
    expect(errorMessage({})).toBe('حدث خطأ ما');
  });

  it('shows the server’s message for a code it does not know, or one with values it cannot say', () => {
    setAppTexts(pageIntl('es'));
    expect(errorMessage(refusal('SomethingNew', 'A refusal from a newer server'))).toBe(
      'A refusal from a newer server',
    );
    expect(errorMessage(refusal('RateLimited', 'Too many tries of something new, try again in 60 seconds'))).toBe(
      'Too many tries of something new, try again in about a minute',
    );
    expect(refusalText('toString')).toBeNull();
    expect(refusalText(undefined)).toBeNull();
  });

  it('says a rate limit and its wait in Spanish and in Arabic', () => {
    setAppTexts(pageIntl('es'));
    expect(errorMessage(rateLimited('Too many requests, try again in 3596 seconds', '3596'))).toBe(
      'Demasiadas solicitudes; vuelve a intentarlo dentro de una hora aproximadamente',
    );
    expect(errorMessage(rateLimited('Too many wrong codes, try again in 120 seconds'))).toBe(
      'Demasiados códigos incorrectos; vuelve a intentarlo dentro de 2 minutos',
    );
    setAppTexts(pageIntl('ar'));
    expect(errorMessage(rateLimited('Too many wrong passwords for this account, try again in 600 seconds'))).toBe(
      'عدد كبير جدًا من كلمات المرور الخاطئة لهذا الحساب، حاول مجددًا بعد 10 دقائق',
    );
    // A message without its wait takes it from Retry-After; without either it stays the server's.
    expect(errorMessage(rateLimited('Too many requests, try again', '7200'))).toBe(
      'عدد كبير جدًا من الطلبات، حاول مجددًا بعد ساعتين تقريبًا',
    );
    expect(errorMessage(rateLimited('Too many requests, try again'))).toBe('Too many requests, try again');
  });

  it('says a rate limit in English exactly as before (the server’s message, its wait in words)', () => {
    setAppTexts(pageIntl('en'));
    const root = path.resolve(import.meta.dirname, '../../..');
    const sources = ['server/http/rateLimits.ts', 'server/auth/lockout.ts', 'server/auth/twoFactor.ts']
      .map((file) => readFileSync(path.join(root, file), 'utf8'))
      .join('\n');
    for (const shape of Object.keys(RATE_LIMIT_SHAPES)) {
      expect(sources, shape).toContain(`\`${shape} in \${seconds} seconds\``);
      for (const seconds of [1, 30, 60, 900, 3596, 7200, 86400, 3 * 86400]) {
        const message = `${shape} in ${seconds} seconds`;
        // The catalogue's English (not the fallback) is word for word what the server's message became.
        expect(rateLimitText('RateLimited', message, undefined), message).toBe(waitInWords(message));
        expect(errorMessage(rateLimited(message, String(seconds)))).toBe(waitInWords(message));
      }
    }
    expect(errorMessage(rateLimited('Too many requests, try again in 3596 seconds'))).toBe(
      'Too many requests, try again in about an hour',
    );
  });

  it('shows English while no page has set its messages', () => {
    setAppTexts({ language: 'en', messages: {} });
    expect(errorMessage(refusal('InvalidCredentials', 'The server’s words'))).toBe('The server’s words');
    expect(errorMessage(offline)).toBe(OFFLINE_MESSAGE);
    expect(errorMessage(rateLimited('Too many wrong codes, try again in 120 seconds'))).toBe(
      'Too many wrong codes, try again in 2 minutes',
    );
    expect(errorMessage(null)).toBe('Something went wrong');
  });

  it('reads a refusal back from its text in either language (the forms mark its field)', () => {
    setAppTexts(pageIntl('fr'));
    expect(isRefusal('Cette adresse e-mail est déjà enregistrée', 'EmailTaken', 'Email is already registered')).toBe(
      true,
    );
    expect(isRefusal('Email is already registered', 'EmailTaken', 'Email is already registered')).toBe(true);
    expect(isRefusal('Ce nom d’utilisateur est déjà pris', 'EmailTaken', 'Email is already registered')).toBe(false);
  });

  it('in English, is each code’s message as the server writes it (its constants as ICU arguments)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const sources = ['server', 'lib']
      .flatMap((dir) =>
        readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts'))
          .map((file) => readFileSync(path.join(root, dir, file), 'utf8')),
      )
      .join('\n');
    const english = JSON.parse(readFileSync(path.join(root, 'lib/i18n/messages/en/errors.json'), 'utf8')) as Record<
      string,
      string
    >;
    for (const code of TRANSLATED_CODES) {
      // `{count}` stands for the constant the server's template writes: `${UPLOAD_MAX_QUEUED_PER_USER}`.
      const pattern = english[code]
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\$\\{[A-Z_]+\\}');
      expect(sources, code).toMatch(new RegExp(`['"\`]${pattern}['"\`]`));
      // The code is the one the server gives (its throw site or constant names it).
      expect(sources, code).toContain(`'${code}'`);
    }
  });
});
