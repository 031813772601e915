import { dateTimeTitle, relativeTime } from '../../../../components/ui/RelativeTime';

describe('relativeTime', () => {
  const now = Date.parse('2026-06-15T12:00:00Z');
  const at = (secondsFromNow: number) => new Date(now + secondsFromNow * 1000).toISOString();

  it('says what Intl.RelativeTimeFormat (en, short, numeric auto) says, for past and future', () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
    const units: [Intl.RelativeTimeFormatUnit, number][] = [
      ['year', 365 * 24 * 3600],
      ['month', 30 * 24 * 3600],
      ['week', 7 * 24 * 3600],
      ['day', 24 * 3600],
      ['hour', 3600],
      ['minute', 60],
    ];
    for (const [index, [unit, size]] of units.entries()) {
      // Within each unit's range: 1, 2 and the largest count before the next unit up.
      const max = index === 0 ? 7 : Math.floor((units[index - 1][1] - 1) / size);
      for (const count of [1, 2, max]) {
        for (const sign of [-1, 1]) {
          expect(relativeTime(at(sign * count * size), now)).toBe(intl.format(sign * count, unit));
        }
      }
    }
  });

  it('says "just now" under a minute', () => {
    expect(relativeTime(at(-59), now)).toBe('just now');
  });

  it('writes the title as toLocaleString("en") does', () => {
    for (const iso of ['2026-01-05T00:07:09', '2026-11-22T12:30:00', '2026-11-22T17:12:48', '2031-12-31T23:59:59']) {
      const date = new Date(iso);
      expect(dateTimeTitle(date)).toBe(date.toLocaleString('en').replace(/\u202f/g, ' '));
    }
  });
});
