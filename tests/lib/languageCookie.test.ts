import type { IncomingMessage, ServerResponse } from 'node:http';
import { FIRST_LOAD_KEY, type FirstLoad } from '../../lib/firstLoad';
import type { Language } from '../../lib/i18n/languages';
import { privatePageProps } from '../../lib/pageProps';

/** A full page load's request as the server hands it over (lib/firstLoad.ts), and a response that records its cookies. */
function pageLoad(cookie: string | undefined, account: Language | null | 'none') {
  const req = { headers: cookie === undefined ? {} : { cookie } } as unknown as IncomingMessage;
  if (account !== 'none')
    (req as unknown as Record<symbol, FirstLoad>)[FIRST_LOAD_KEY] = {
      user: { language: account },
      page: null,
    } as unknown as FirstLoad;
  const cookies: string[] = [];
  const res = { appendHeader: (name: string, value: string) => cookies.push(`${name}: ${value}`) };
  return { req, res: res as unknown as ServerResponse, cookies };
}

describe("a member's page keeps the lang cookie in step with the account (lib/pageProps.ts)", () => {
  it('sets it when it is missing or another, in the language the page renders in', async () => {
    const missing = pageLoad('session=1', 'de');
    expect((await privatePageProps(missing)).props.intl.language).toBe('de');
    expect(missing.cookies).toEqual(['Set-Cookie: lang=de; Path=/; Max-Age=31536000; SameSite=Lax']);
    const other = pageLoad('lang=fr; session=1', 'ar');
    expect((await privatePageProps(other)).props.intl.language).toBe('ar');
    expect(other.cookies).toEqual(['Set-Cookie: lang=ar; Path=/; Max-Age=31536000; SameSite=Lax']);
  });

  it('leaves it alone when it agrees, when the account chose none, and on a data request (no session read)', async () => {
    for (const [cookie, account] of [
      ['lang=ja', 'ja'],
      ['lang=fr', null],
      ['lang=fr', 'none'],
    ] as const) {
      const load = pageLoad(cookie, account);
      await privatePageProps(load);
      expect(load.cookies, `${cookie} ${account}`).toEqual([]);
    }
  });
});
