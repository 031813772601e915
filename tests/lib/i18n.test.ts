import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import compile from 'icu-minify/compile';
import { cataloguesOf, flatten } from '../../lib/i18n/catalogues';
import { chooseLanguage, fromAcceptLanguage } from '../../lib/i18n/choose';
import { directionOf, LANGUAGE_NAMES, LANGUAGES, OFFERED_LANGUAGES } from '../../lib/i18n/languages';
import { TRANSLATED_CODES } from '../../services/errorTexts';

const root = path.resolve(import.meta.dirname, '../..');
const CATALOGUES = cataloguesOf();
const english = flatten(CATALOGUES.en);

/**
 * The `{argument}` names of an ICU message, plural/select branches and tags included, read from
 * its compiled form (a branch's text such as `one {post}` is no argument, which no pattern tells):
 * an argument is `[name]` or `[name, type, options?]` (type > 0; 0 is `#`), a tag `[name, ...children]`,
 * else a sequence.
 */
function argumentsOf(message: string): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (!Array.isArray(node)) return;
    const [head, type, options] = node as [unknown, unknown, unknown];
    if (typeof head === 'string' && (node.length === 1 || (typeof type === 'number' && type > 0))) {
      names.add(head);
      if (options && typeof options === 'object') Object.values(options).forEach(walk);
    } else for (const part of typeof head === 'string' ? node.slice(1) : node) walk(part);
  };
  walk(compile(message));
  return names;
}

/**
 * The keys the code asks for: `t('key')` in a file whose `useTranslations('namespace')` names one
 * namespace, and `textOf('namespace.key')` anywhere (the server's mails too: lib/i18n/serverTexts.ts).
 */
function keysInCode(): Set<string> {
  const used = new Set<string>();
  for (const dir of ['components', 'features', 'hooks', 'pages', 'lib', 'server', 'services', 'store']) {
    for (const file of readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue;
      const code = readFileSync(path.join(root, dir, file), 'utf8');
      // Outside React (lib/i18n/appTexts.ts) keys are whole.
      for (const m of code.matchAll(/\btextOf(?:\.markup)?\('([\w.]+)'/g)) used.add(m[1]);
      const namespaces = [...code.matchAll(/useTranslations\('([\w.]+)'\)/g)].map((m) => m[1]);
      if (namespaces.length === 0) continue;
      if (new Set(namespaces).size > 1) throw new Error(`${file}: one namespace per file, so its keys can be checked`);
      // `t('key')` and its rich-text forms `t.rich('key', …)`, `t.markup('key', …)` (embedded links and bold).
      for (const m of code.matchAll(/\bt(?:\.rich|\.markup)?\('([\w.]+)'/g)) used.add(`${namespaces[0]}.${m[1]}`);
    }
  }
  // The refusals translated by their code, each `errors.<Code>` (services/errorTexts.ts).
  for (const code of TRANSLATED_CODES) used.add(`errors.${code}`);
  return used;
}

describe('the message catalogues (issue 75)', () => {
  it.each(LANGUAGES)('%s has exactly the English keys', (language) => {
    expect([...flatten(CATALOGUES[language]).keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('every key is used by the code and every key the code uses exists', () => {
    expect([...keysInCode()].sort()).toEqual([...english.keys()].sort());
  });

  it.each(LANGUAGES)('every %s message is valid ICU with the English arguments, and none is empty', (language) => {
    for (const [key, message] of flatten(CATALOGUES[language])) {
      expect(() => compile(message), `${language} ${key}`).not.toThrow();
      expect(message.trim(), `${language} ${key}`).not.toBe('');
      expect(argumentsOf(message), `${language} ${key}`).toEqual(argumentsOf(english.get(key)!));
    }
  });

  it('Japanese has no spaces between its words (it writes none)', () => {
    for (const [key, message] of flatten(CATALOGUES.ja))
      expect(message, key).not.toMatch(/[^\x20-\x7e]\s|\s[^\x20-\x7e]/);
  });

  // A plain space would let the sign wrap alone onto the next line. ICU's own syntax (`{n, plural, …}`)
  // uses none of these signs, so the whole message can be read as text.
  it('French holds its signs to their word: a no-break space before : ? ! ; and inside « »', () => {
    for (const [key, message] of flatten(CATALOGUES.fr))
      expect(message, key).not.toMatch(/[^\S\u00a0\u202f][:?!;»]|«[^\S\u00a0\u202f]/);
  });

  it('names each language in itself, Arabic right to left', () => {
    expect(Object.values(LANGUAGE_NAMES)).toEqual(['English', 'Español', 'Deutsch', 'Français', '日本語', 'العربية']);
    expect(LANGUAGES.filter((language) => directionOf(language) === 'rtl')).toEqual(['ar']);
  });
});

describe('choosing the language', () => {
  it('the account, then the cookie, then Accept-Language, then English', () => {
    expect(chooseLanguage({ account: 'de', cookie: 'fr', acceptLanguage: 'ja' }, LANGUAGES)).toBe('de');
    expect(chooseLanguage({ account: null, cookie: 'fr', acceptLanguage: 'ja' }, LANGUAGES)).toBe('fr');
    expect(chooseLanguage({ cookie: 'xx', acceptLanguage: 'ja,en;q=0.5' }, LANGUAGES)).toBe('ja');
    expect(chooseLanguage({ account: 'klingon', acceptLanguage: 'pt-BR,pt;q=0.9' }, LANGUAGES)).toBe('en');
    expect(chooseLanguage({}, LANGUAGES)).toBe('en');
  });

  it('reads Accept-Language by quality, regional variants counting as their language', () => {
    expect(fromAcceptLanguage('es-MX,es;q=0.9,en;q=0.8', LANGUAGES)).toBe('es');
    expect(fromAcceptLanguage('en;q=0.4, ar;q=0.9', LANGUAGES)).toBe('ar');
    expect(fromAcceptLanguage('pt, fr;q=0.1', LANGUAGES)).toBe('fr');
    expect(fromAcceptLanguage('de;q=0, ja;q=0.2', LANGUAGES)).toBe('ja');
    expect(fromAcceptLanguage('*', LANGUAGES)).toBeNull();
    expect(fromAcceptLanguage('', LANGUAGES)).toBeNull();
  });

  it('lets Accept-Language choose only a language offered (every one now); a choice made takes any', () => {
    expect(OFFERED_LANGUAGES).toEqual(LANGUAGES);
    expect(chooseLanguage({ acceptLanguage: 'ja,en;q=0.5' })).toBe('ja');
    expect(chooseLanguage({ acceptLanguage: 'ar' })).toBe('ar');
    expect(chooseLanguage({ acceptLanguage: 'ja,en;q=0.5' }, ['en'])).toBe('en');
    expect(chooseLanguage({ cookie: 'ar', acceptLanguage: 'ja' })).toBe('ar');
    expect(chooseLanguage({ account: 'ja' })).toBe('ja');
  });
});
