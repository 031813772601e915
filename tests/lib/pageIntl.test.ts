import { pageIntl, requestIntl } from '../../lib/i18n/pageIntl';
import { setAppTexts, textOf } from '../../lib/i18n/appTexts';

const request = (headers: Record<string, string>) => ({ headers });

describe('the language of a request (lib/i18n/pageIntl.ts)', () => {
  it('takes the account, then the lang cookie, then Accept-Language (among the languages offered)', () => {
    expect(requestIntl(request({ cookie: 'a=1; lang=de', 'accept-language': 'fr' }), 'ja').language).toBe('ja');
    expect(requestIntl(request({ cookie: 'a=1; lang=de', 'accept-language': 'fr' })).language).toBe('de');
    // A cookie the app does not speak counts as none.
    expect(requestIntl(request({ cookie: 'lang=xx', 'accept-language': 'fr-CA' })).language).toBe('fr');
    expect(requestIntl(request({ 'accept-language': 'pt-BR' })).language).toBe('en');
    expect(requestIntl(request({})).language).toBe('en');
  });

  it('hands the page its language compiled, compiled once for every page of that language', () => {
    const arabic = pageIntl('ar');
    expect(arabic.messages).toMatchObject({ shell: expect.objectContaining({ signIn: 'تسجيل الدخول' }) });
    expect(pageIntl('ar').messages).toBe(arabic.messages);
  });
});

describe('texts outside React (lib/i18n/appTexts.ts)', () => {
  afterAll(() => setAppTexts(pageIntl('en')));

  it('speaks the language the app renders in now, by whole key', () => {
    setAppTexts(pageIntl('es'));
    expect(textOf('shell.signIn')).toBe('Iniciar sesión');
    setAppTexts(pageIntl('en'));
    expect(textOf('shell.signIn')).toBe('Sign in');
  });
});
