import { setAppTexts, textOf } from '../../lib/i18n/appTexts';
import { pageIntl } from '../../lib/i18n/pageIntl';
import { inWords, roundedWait, waitInWords } from '../../lib/retryAfter';

/** The waits of the table below, as many seconds. */
const WAITS = [
  0,
  1,
  30,
  44,
  45,
  89,
  90,
  120,
  900,
  44 * 60,
  45 * 60,
  3596,
  3600,
  2 * 3600,
  21 * 3600,
  24 * 3600,
  3 * 86400,
];

describe('inWords (issue 68, item 11)', () => {
  it.each([
    [0, 'in a moment'],
    [1, 'in a moment'],
    [30, 'in 30 seconds'],
    [44, 'in 44 seconds'],
    [45, 'in about a minute'],
    [89, 'in about a minute'],
    [90, 'in 2 minutes'],
    [120, 'in 2 minutes'],
    [900, 'in 15 minutes'],
    [44 * 60, 'in 44 minutes'],
    [45 * 60, 'in about an hour'],
    [3596, 'in about an hour'],
    [3600, 'in about an hour'],
    [2 * 3600, 'in about 2 hours'],
    [21 * 3600, 'in about 21 hours'],
    [24 * 3600, 'in about a day'],
    [3 * 86400, 'in about 3 days'],
  ])('%i seconds is "%s"', (seconds, words) => {
    expect(inWords(seconds)).toBe(words);
  });

  it('rounds a fraction of a second up and never goes below a moment', () => {
    expect(inWords(29.2)).toBe('in 30 seconds');
    expect(inWords(-5)).toBe('in a moment');
  });
});

describe('waitInWords', () => {
  it("rewrites the server's wait in seconds", () => {
    expect(waitInWords('Too many requests, try again in 3596 seconds')).toBe(
      'Too many requests, try again in about an hour',
    );
    expect(waitInWords('Too many wrong codes, try again in 120 seconds')).toBe(
      'Too many wrong codes, try again in 2 minutes',
    );
  });

  it('leaves other messages alone', () => {
    expect(waitInWords('Invalid password')).toBe('Invalid password');
    expect(waitInWords('This server holds as many streams as it can; try again in a minute')).toBe(
      'This server holds as many streams as it can; try again in a minute',
    );
  });
});

describe('the wait in the page’s language (issue 75)', () => {
  afterEach(() => setAppTexts(pageIntl('en')));
  const waitIn = (seconds: number) => textOf('errors.waitIn', roundedWait(seconds));

  it('says in English, through the catalogue, what inWords says', () => {
    setAppTexts(pageIntl('en'));
    for (const seconds of [...WAITS, 1000 * 86400]) expect(waitIn(seconds), String(seconds)).toBe(inWords(seconds));
  });

  it('rounds as inWords does, in Spanish, Japanese and Arabic (its dual and plural forms)', () => {
    setAppTexts(pageIntl('es'));
    expect([0, 30, 60, 900, 3596, 2 * 3600, 86400, 3 * 86400].map(waitIn)).toEqual([
      'en un momento',
      'dentro de 30 segundos',
      'dentro de un minuto aproximadamente',
      'dentro de 15 minutos',
      'dentro de una hora aproximadamente',
      'dentro de unas 2 horas',
      'dentro de un día aproximadamente',
      'dentro de unos 3 días',
    ]);
    setAppTexts(pageIntl('ja'));
    expect([0, 30, 3596, 2 * 3600, 3 * 86400].map(waitIn)).toEqual([
      '少し待ってから',
      '30秒後に',
      '約1時間後に',
      '約2時間後に',
      '約3日後に',
    ]);
    setAppTexts(pageIntl('ar'));
    expect([2, 5, 30, 120, 600, 3596, 2 * 3600, 11 * 3600, 3 * 86400, 11 * 86400].map(waitIn)).toEqual([
      'بعد ثانيتين',
      'بعد 5 ثوانٍ',
      'بعد 30 ثانية',
      'بعد دقيقتين',
      'بعد 10 دقائق',
      'بعد ساعة تقريبًا',
      'بعد ساعتين تقريبًا',
      'بعد 11 ساعة تقريبًا',
      'بعد 3 أيام تقريبًا',
      'بعد 11 يومًا تقريبًا',
    ]);
  });
});
