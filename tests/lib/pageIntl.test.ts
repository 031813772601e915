import { pageIntl, requestIntl } from '../../lib/i18n/pageIntl';

const request = (headers: Record<string, string>) => ({ headers });

describe('the language of a request (lib/i18n/pageIntl.ts)', () => {
  it('takes the account, then the lang cookie, then Accept-Language (among the languages offered)', () => {
    expect(requestIntl(request({ cookie: 'a=1; lang=de', 'accept-language': 'fr' }), 'ja').language).toBe('ja');
    expect(requestIntl(request({ cookie: 'a=1; lang=de', 'accept-language': 'fr' })).language).toBe('de');
    // French is not offered until its catalogue is complete (lib/i18n/languages.ts, OFFERED_LANGUAGES).
    expect(requestIntl(request({ cookie: 'lang=xx', 'accept-language': 'fr-CA' })).language).toBe('en');
    expect(requestIntl(request({})).language).toBe('en');
  });

  it('hands the page its language compiled, compiled once for every page of that language', () => {
    const arabic = pageIntl('ar');
    expect(arabic.messages).toEqual({ shell: expect.objectContaining({ signIn: 'تسجيل الدخول' }) });
    expect(pageIntl('ar').messages).toBe(arabic.messages);
  });
});
